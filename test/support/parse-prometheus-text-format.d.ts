/** The Prometheus text parser the metrics tests read scrapes with (it ships no types of its own). */
declare module 'parse-prometheus-text-format' {
  /** One series: a value, or a histogram's buckets, count and sum. */
  export interface PrometheusSample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }

  /** A metric family as its HELP and TYPE lines name it, with its series. */
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }

  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
