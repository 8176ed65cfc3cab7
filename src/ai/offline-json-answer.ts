import {
  firstSentence,
  materialOf,
  meaningfulWords,
  OFFLINE_MARKER,
  type StepMaterial,
  shorten,
  withoutFullStop,
} from './offline-answer';
import { offlineWorkflow } from './offline-workflow';

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {};

/** JSON Schema says 'string'; Google's OpenAPI subset says 'STRING'; a nullable type is a list. */
function typeOf(schema: Schema): string | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === 'string' && t.toLowerCase() !== 'null',
  );
  if (types[0]) return types[0].toLowerCase();
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

const propertiesOf = (schema: Schema): Array<[string, Schema]> =>
  Object.entries(asSchema(schema.properties)).map(([name, property]) => [name, asSchema(property)]);

/** FNV-1a: the same prompt always gets the same pick, on every machine. */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** `systemPrompt` -> 'system prompt'. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();

/** A value that conforms to `schema`: every property, 3 items per list, the first of an enum. */
export function valueForSchema(schema: Schema, topic: string, name = 'value', position = 1): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options) && options.length > 0)
    return valueForSchema(asSchema(options[0]), topic, name, position);
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries(
        propertiesOf(schema).map(([key, property]) => [key, valueForSchema(property, topic, key, position)]),
      );
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
      const count = Math.min(Math.max(3, min), max);
      const item = asSchema(schema.items);
      return Array.from({ length: count }, (_, i) => valueForSchema(item, topic, name, i + 1));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : position;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const text = `${OFFLINE_MARKER} ${wordsOf(name)} ${position}: ${topic}`;
      return typeof schema.maxLength === 'number' ? text.slice(0, schema.maxLength) : text;
    }
  }
}

/** The multiple-output contract: a list of alternatives, each `{branchName, content}`. */
function isBranchList(schema: Schema): boolean {
  const item = asSchema(schema.items);
  const names = propertiesOf(item).map(([name]) => name);
  return typeOf(schema) === 'array' && names.includes('branchName') && names.includes('content');
}

/** The workflow-generation contract: `{name, description, steps: [{systemPrompt, inputSources, ...}]}`. */
function isWorkflowSchema(schema: Schema): boolean {
  const properties = asSchema(schema.properties);
  const stepProperties = asSchema(asSchema(asSchema(properties.steps).items).properties);
  return 'name' in properties && 'systemPrompt' in stepProperties && 'inputSources' in stepProperties;
}

interface Angle {
  name: string;
  /** The idea in a sentence, naming its topic. */
  idea: (topic: string) => string;
}

interface IdeaWording {
  angles: Angle[];
  task: string;
  buildsOn: string;
}

// More angles than ideas, so ideas the user rejected (by their names) can give way to new ones.
const IDEA_WORDING: Record<'vi' | 'en', IdeaWording> = {
  vi: {
    angles: [
      {
        name: 'Hướng trực diện',
        idea: (t) => `Hướng trực diện cho "${t}": đi thẳng vào trọng tâm, giữ mọi thứ đơn giản.`,
      },
      {
        name: 'Hướng chi tiết',
        idea: (t) => `Phân tích kỹ "${t}": chia thành từng phần và xử lý lần lượt từng phần.`,
      },
      {
        name: 'Hướng sáng tạo',
        idea: (t) => `Góc nhìn bất ngờ về "${t}": tiếp cận từ phía người đọc, với một điểm nhấn gây tò mò.`,
      },
      {
        name: 'Hướng thực tế',
        idea: (t) =>
          `Kế hoạch thực tế cho "${t}": việc cụ thể, công cụ cần có và kết quả đầu tiên trong một tuần.`,
      },
      {
        name: 'Hướng dữ liệu',
        idea: (t) => `"${t}" qua số liệu: bắt đầu từ con số, ví dụ thật và những gì đo được.`,
      },
      {
        name: 'Hướng phản biện',
        idea: (t) =>
          `Góc phản biện về "${t}": chất vấn các giả định quen thuộc và chỉ ra điều hay bị bỏ qua.`,
      },
    ],
    task: 'Yêu cầu',
    buildsOn: 'Dựa trên',
  },
  en: {
    angles: [
      {
        name: 'Straightforward approach',
        idea: (t) => `The direct route to "${t}": go straight to the core and keep it simple.`,
      },
      {
        name: 'Detailed approach',
        idea: (t) => `A thorough take on "${t}": break it into parts and work through each in turn.`,
      },
      {
        name: 'Creative approach',
        idea: (t) =>
          `An unexpected angle on "${t}": start from the audience's side, with a hook that makes them curious.`,
      },
      {
        name: 'Practical approach',
        idea: (t) =>
          `A practical plan for "${t}": concrete tasks, the tools needed and a first result within a week.`,
      },
      {
        name: 'Evidence-led approach',
        idea: (t) =>
          `"${t}" through the evidence: start from figures, real examples and what can be measured.`,
      },
      {
        name: 'Contrarian approach',
        idea: (t) =>
          `A contrarian take on "${t}": question the usual assumptions and show what is often overlooked.`,
      },
    ],
    task: 'Task',
    buildsOn: 'Builds on',
  },
};

const IDEAS = 3;

/**
 * Several ideas on the prompt's topic, each from its own angle and taking up its own point of the earlier
 * results; angles whose ideas the user rejected are left out.
 */
function ideas(material: StepMaterial) {
  const wording = IDEA_WORDING[material.vietnamese ? 'vi' : 'en'];
  const fresh = wording.angles.filter((angle) => !material.rejected.includes(angle.name));
  const angles = (fresh.length >= IDEAS ? fresh : wording.angles).slice(0, IDEAS);
  const topic = shorten(material.topic, 100);
  return angles.map((angle, i) => {
    const point = material.points.length > 0 ? material.points[i % material.points.length] : undefined;
    const parts = [`${OFFLINE_MARKER} ${angle.idea(topic)}`];
    // Without an input the topic is the instruction itself, said once.
    const task = withoutFullStop(material.instruction);
    if (task !== '' && task !== material.topic) parts.push(`${wording.task}: ${task}.`);
    if (point) parts.push(`${wording.buildsOn}: ${withoutFullStop(shorten(point, 120))}.`);
    return { branchName: angle.name, content: parts.join(' ') };
  });
}

/** How the offline model picked: it says so of itself, in Vietnamese like the rest of the UI. */
const CHOICE_WORDING = {
  matched: (choice: string, word: string, topic: string) =>
    `${OFFLINE_MARKER} Chọn "${choice}" vì nội dung nhắc đến "${word}" (chủ đề: ${topic}).`,
  unmatched: (choice: string, topic: string) =>
    `${OFFLINE_MARKER} Nội dung không nghiêng về lựa chọn nào, nên "${choice}" được chọn cố định theo prompt, không suy luận (chủ đề: ${topic}).`,
};

/**
 * The choice the prompt's content speaks for: the one with the most of its words in the task, the input
 * and the earlier results; when none or several tie, a stable hash of the prompt decides among them.
 */
function pick(choices: unknown[], material: StepMaterial, prompt: string) {
  const said = new Set(
    meaningfulWords([material.input, material.task, ...material.sources.map((s) => s.body)].join('\n')),
  );
  const scored = choices.map((choice) => {
    const found = meaningfulWords(String(choice)).filter((word) => said.has(word));
    return { choice, found };
  });
  const best = Math.max(...scored.map((s) => s.found.length));
  const candidates = scored.filter((s) => s.found.length === best);
  const chosen = candidates[stableHash(prompt) % candidates.length]!;
  const topic = shorten(material.topic, 60);
  const reason =
    best > 0
      ? CHOICE_WORDING.matched(String(chosen.choice), chosen.found[0]!, topic)
      : CHOICE_WORDING.unmatched(String(chosen.choice), topic);
  return { choice: chosen.choice, reason };
}

/**
 * The offline answer to a structured request, honouring the same contracts as Gemini: ideas on the
 * prompt's topic for a list of branches, the choice the prompt's content speaks for, a workflow for a
 * workflow description or a creator conversation, or otherwise a value built from the schema. Returned as
 * JSON text.
 */
export function offlineJsonAnswer(schema: object, prompt: string): string {
  const root = asSchema(schema);
  // The whole prompt is the description: it may have headings of its own.
  if (isWorkflowSchema(root)) return JSON.stringify(offlineWorkflow(prompt), null, 2);
  const material = materialOf('', prompt);

  if (isBranchList(root)) return JSON.stringify(ideas(material), null, 2);

  const topic = firstSentence(material.task || prompt, 100) || 'the task';
  const choices = asSchema(asSchema(root.properties).choice).enum;
  if (typeOf(root) === 'object' && Array.isArray(choices) && choices.length > 0) {
    const { choice, reason } = pick(choices, material, prompt);
    const answer = asSchema(valueForSchema(root, topic));
    answer.choice = choice;
    if ('reason' in answer) answer.reason = reason;
    return JSON.stringify(answer, null, 2);
  }

  return JSON.stringify(valueForSchema(root, topic), null, 2);
}
