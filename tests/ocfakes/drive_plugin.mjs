// Drives extension/openclaw/index.js the way OpenClaw does, with a fake `api`, and prints what
// happened as one JSON line:  node drive_plugin.mjs <path/to/index.js>
// CONTEXT_COMPACTOR_PYTHON picks the child (a real Python, or a program that dies at once).
import { pathToFileURL } from "node:url";

const plugin = (await import(pathToFileURL(process.argv[2]).href)).default;
const logs = [];
const engines = [];
const commands = {};
const api = {
  registrationMode: "full",
  pluginConfig: JSON.parse(process.env.CC_CONFIG ?? "{}"),
  config: {},
  runtime: {},
  logger: { info: (m) => logs.push(["info", m]), warn: (m) => logs.push(["warn", m]) },
  registerContextEngine: (id, factory) => engines.push([id, factory]),
  registerCommand: (spec) => (commands[spec.name] = spec),
};
plugin.register(api);
plugin.register({ ...api, registrationMode: "discovery" }); // OpenClaw imports and registers more than once
const messages = [];
for (let t = 0; t < 12; t++) {
  messages.push({ role: "user", content: `turn ${t} ` + "word ".repeat(300), timestamp: t });
  messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${t}` }], timestamp: t });
}
const results = [];
for (let i = 0; i < 3; i++) {
  const engine = engines[0][1]({}); // a new engine object per turn, as OpenClaw makes them
  const r = await engine.assemble({ sessionKey: "s1", messages, prompt: "next?", tokenBudget: 90000, model: "m" });
  results.push({ same: r.messages === messages, kept: r.messages.filter((m) => messages.includes(m)).length,
                 count: r.messages.length, first: String(r.messages[0]?.content).slice(0, 40) });
}
// A session with open tasks: the reminder the engine appends to the current turn comes back as
// systemPromptAddition (OpenClaw adds the current turn itself).
const todo = { todos: [{ content: "TAG-THE-RELEASE", status: "pending" }] };
const planned = [{ role: "user", content: "plan it", timestamp: 0 },
                 { role: "assistant", content: [{ type: "toolCall", id: "t1", name: "todo_write", arguments: todo }], timestamp: 0 },
                 { role: "toolResult", toolCallId: "t1", toolName: "todo_write", content: [{ type: "text", text: "ok" }], timestamp: 0 },
                 ...messages];
const withTodo = await engines[0][1]({}).assemble({ sessionKey: "s2", messages: planned, prompt: "next?", tokenBudget: 90000, model: "m" });
const todoTurn = { addition: withTodo.systemPromptAddition ?? null, count: withTodo.messages.length };
const engine = engines[0][1]({});
const commit = await engine.commitTurn({ advancementKey: "k1", messages: messages.slice(-2) });
const dup = await engine.commitTurn({ advancementKey: "k1", messages: messages.slice(-2) });
const stats = await commands["context-stats"].handler({ sessionKey: "s1" });
console.log(JSON.stringify({ results, todoTurn, commit, dup, stats: stats.text, info: engine.info, ids: engines.map((e) => e[0]),
                             commands: Object.keys(commands).sort(), logs }));
process.exit(0);
