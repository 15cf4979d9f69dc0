// A TypeScript SDK client (a third-party peer) making one call that the server holds for approval: connects
// over stdio to the server whose command line follows "--", calls run_command with a request timeout of
// TIMEOUT_MS, and prints one JSON line per event on stdout:
//   {"progress": N, "message": "..."}   a notifications/progress for the call (MODE "progress" and "noreset")
//   {"result": {...}}  or  {"error": {"code": N, "message": "..."}}
// then calls echo once (the session goes on), prints {"echo": "..."}, and waits for a line on its stdin
// before closing, so the test can ask the server's admin endpoint first.
// MODE: "progress" asks for progress (a progressToken) and resets its timeout on each; "noreset" asks for
// progress but keeps its timeout; "plain" asks for no progress.
// Usage: node ts-approval-client.mjs SDK_DIR MODE TIMEOUT_MS -- COMMAND ARGS...
import { pathToFileURL } from 'node:url';

const [sdkDir, mode, timeoutMs, separator, command, ...args] = process.argv.slice(2);
if (separator !== '--' || !command || !['progress', 'noreset', 'plain'].includes(mode)) {
  console.error('usage: node ts-approval-client.mjs SDK_DIR progress|noreset|plain TIMEOUT_MS -- COMMAND ARGS...');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(`${sdkDir}/dist/esm/${path}`).href);
const { Client } = await load('client/index.js');
const { StdioClientTransport } = await load('client/stdio.js');

const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'ts-approval-client', version: '1.0' });
await client.connect(transport);
const print = (value) => console.log(JSON.stringify(value));

const options = { timeout: Number(timeoutMs) };
if (mode !== 'plain') {
  options.resetTimeoutOnProgress = mode === 'progress';
  options.onprogress = (progress) => print({ progress: progress.progress, message: progress.message });
}
try {
  print({ result: await client.callTool({ name: 'run_command', arguments: { command: 'ls held' } }, undefined, options) });
} catch (error) {
  print({ error: { code: error?.code ?? null, message: String(error?.message ?? error) } });
}
const echo = await client.callTool({ name: 'echo', arguments: { text: 'after' } }, undefined, { timeout: 20000 });
print({ echo: echo.content?.[0]?.text });

await new Promise((resolve) => process.stdin.once('data', resolve));
await client.close();
process.exit(0);
