/** On the API keys page an error reading `401: ...Unauthorized` means the session has ended. */
export const isUnauthorized = (error: unknown) =>
  error instanceof Error && /^401: .*Unauthorized/.test(error.message);
