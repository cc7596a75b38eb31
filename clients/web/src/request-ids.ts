// Request ids make retries safe (SubmitMove, CreateMatch). crypto.randomUUID
// exists only in secure contexts; getRandomValues works on plain http too.
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
