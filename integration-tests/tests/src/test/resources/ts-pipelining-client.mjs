// A pipelining MCP client on the TypeScript SDK (a third-party peer): connects over stdio to the server
// whose command line follows "--", then makes every call in CALLS_JSON at once (Promise.allSettled),
// without waiting for any answer (a call with "uri" reads that resource, one with "prompt" gets that prompt, with its
// "arguments"), and prints one JSON-RPC-response-shaped line per call on stdout:
//   {"id": ID, "result": {...}}   or   {"id": ID, "error": {"code": N, "message": "..."}}
// then {"done": N, "ms": M}. The server's stderr goes to this process's stderr.
// Usage: node ts-pipelining-client.mjs SDK_DIR CALLS_JSON -- COMMAND ARGS...
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [sdkDir, callsFile, separator, command, ...args] = process.argv.slice(2);
if (separator !== '--' || !command) {
  console.error('usage: node ts-pipelining-client.mjs SDK_DIR CALLS_JSON -- COMMAND ARGS...');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(`${sdkDir}/dist/esm/${path}`).href);
const { Client } = await load('client/index.js');
const { StdioClientTransport } = await load('client/stdio.js');

const calls = JSON.parse(readFileSync(callsFile, 'utf8'));
const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
const client = new Client({ name: 'ts-pipelining-client', version: '1.0' });
await client.connect(transport);

const started = Date.now();
const settled = await Promise.allSettled(
  calls.map((call) => call.uri !== undefined ? client.readResource({ uri: call.uri }, { timeout: 20000 })
    : call.prompt !== undefined ? client.getPrompt({ name: call.prompt, arguments: call.arguments }, { timeout: 20000 })
    : client.callTool({ name: call.name, arguments: call.arguments }, undefined, { timeout: 20000 })));
settled.forEach((outcome, i) => {
  const id = calls[i].id;
  const line = outcome.status === 'fulfilled'
    ? { id, result: outcome.value }
    : { id, error: { code: outcome.reason?.code ?? null, message: String(outcome.reason?.message ?? outcome.reason) } };
  console.log(JSON.stringify(line));
});
console.log(JSON.stringify({ done: settled.length, ms: Date.now() - started }));
await client.close();
process.exit(0);
