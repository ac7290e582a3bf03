// Drives the tool-call hooks of extension/openclaw/index.js the way OpenClaw calls them, with a fake `api`,
// and prints what each before_tool_call returned as one JSON line:  node drive_guard.mjs <path/to/index.js>
// CONTEXT_COMPACTOR_PYTHON picks the child (a real Python, or a program that dies at once).
import { pathToFileURL } from "node:url";

const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const logs = [];
const handlers = {};
const tools = [];
plugin.register({
  registrationMode: "full",
  pluginConfig: JSON.parse(process.env.CC_CONFIG ?? "{}"),
  config: {},
  runtime: {},
  logger: { info: (m) => logs.push(["info", m]), warn: (m) => logs.push(["warn", m]) },
  registerContextEngine: () => {},
  registerCommand: () => {},
  registerTool: (factory, opts) => tools.push(opts?.name),
  on: (name, fn) => (handlers[name] = fn),
});
const ctx = { sessionKey: "agent:main:s1" };
const read = { toolName: "read", params: { path: "missing.txt" } };
const failed = { ...read, result: { content: [{ type: "text", text: "ENOENT: no such file or directory, open 'missing.txt'" }],
                                    details: { status: "error" } } };
const ok = { toolName: "read", params: { path: "there.txt" }, result: { content: [{ type: "text", text: "hello" }], details: {} } };
const checks = [];
for (let i = 0; i < 3; i++) {
  checks.push(await handlers.before_tool_call(read, ctx) ?? null);
  handlers.after_tool_call(failed, ctx); // not awaited, as OpenClaw may not: the next check waits for it
}
handlers.after_tool_call(ok, ctx);
handlers.after_tool_call(ok, ctx);
const other = await handlers.before_tool_call({ toolName: "read", params: { path: "there.txt" } }, ctx) ?? null;
const elsewhere = await handlers.before_tool_call(read, { sessionKey: "agent:main:s2" }) ?? null;
// Our own summary calls (their system prompt opens as the bridge's configure reply says) are not the agent's prompt.
const G = globalThis.__contextCompactor;
handlers.llm_input({ systemPrompt: "You maintain the working memory of an AI agent. Summarize.", tools: [] }, { sessionKey: "s9" });
const ownSkipped = !G.fixed.has("s9");
handlers.llm_input({ systemPrompt: "You are OpenClaw.", tools: [] }, { sessionKey: "s9" });
const agentKept = G.fixed.get("s9")?.system === "You are OpenClaw.";
console.log(JSON.stringify({ checks, other, elsewhere, tools, ownSkipped, agentKept, hooks: Object.keys(handlers).sort(), logs }));
process.exit(0);
