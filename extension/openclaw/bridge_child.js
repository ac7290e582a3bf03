// The Python bridge as a child of the gateway process (`python -m context_compactor.bridge`, one per
// process, JSON lines over stdio; extension/bridge_channel.py reads them): started on the first
// request, configured with the plugin's config, asked, and answered when it calls back (a summary from
// the session model through OpenClaw's llm.complete).
//
// A child that dies is started again on a later call, after a pause that doubles with each death in a
// row (1 s up to 5 min) and is 1 s again once a child has served a turn: never off for good, never a
// tight restart loop. A child that does not answer a request within its time limit is hung: it is
// killed by its PID at once (every request waiting on it fails then, not at its own limit) and the
// next call starts a new one. Starts, crashes, hangs and restarts go to
// <state>/context-compactor/bridge-health.json for doctor. All state lives on globalThis (`G`):
// OpenClaw imports the plugin several times per process.
import { AsyncLocalStorage } from "node:async_hooks";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const ID = "context-compactor";
// Deeper than this, a value is sent as its JSON text: Python reads nesting only so deep, and one
// tool result's `details` must not stop every assemble (the host's own objects are unchanged).
const MAX_DEPTH = 64;

// The restart pause: base x 2^(deaths in a row - 1), capped. CONTEXT_COMPACTOR_RESTART_BACKOFF_MS
// ("base,max") is for tests.
function backoffMs(deaths) {
  const [base, max] = (process.env.CONTEXT_COMPACTOR_RESTART_BACKOFF_MS ?? "1000,300000").split(",").map(Number);
  return Math.min(max >= 0 ? max : 300000, (base >= 0 ? base : 1000) * 2 ** Math.max(0, deaths - 1));
}

const G = (globalThis.__contextCompactor ??= {
  child: null, starts: 0, deaths: 0, retryAt: 0, lastDeath: null, nextId: 1, pending: new Map(),
  committed: new Set(), api: null, configJson: null, warning: null, exitHooked: false,
});
G.recallSpec ??= null; // the tool's description and parameters, from the bridge's configure reply
G.ownSummary ??= null; // how our summary calls' system prompt opens (the bridge's configure reply says)

// What doctor reads of the bridge's life: starts, crashes (exits we did not ask for), hangs (killed for
// not answering in time), restarts, and the last of each. Beside the store (store.default_store_path).
G.health ??= { starts: 0, crashes: 0, hangs: 0, restarts: 0, lastCrash: null, lastHang: null, pid: null };
function healthPath() {
  const state = process.env.OPENCLAW_STATE_DIR || join(homedir(), ".openclaw");
  return join(state, "context-compactor", "bridge-health.json");
}
function recordHealth(change) {
  Object.assign(G.health, change, { updated: new Date().toISOString() });
  try {
    const path = healthPath();
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(`${path}.tmp`, JSON.stringify(G.health));
    renameSync(`${path}.tmp`, path);
  } catch (e) {
    log().warn(`cannot record the bridge's health for doctor: ${e?.message ?? e}`);
  }
}

// How long a request may wait for the child before it counts as hung (CONTEXT_COMPACTOR_BRIDGE_TIMEOUT_MS
// caps it, for tests).
function limitMs(ms) {
  const cap = Number(process.env.CONTEXT_COMPACTOR_BRIDGE_TIMEOUT_MS);
  return cap > 0 ? Math.min(ms, cap) : ms;
}

function log() {
  const l = G.api?.logger;
  return {
    info: (m) => (l?.info ?? console.log).call(l, `[${ID}] ${m}`),
    warn: (m) => (l?.warn ?? console.warn).call(l, `[${ID}] ${m}`),
  };
}

function warn(message) {
  G.warning = message;
  log().warn(`${message}; the history is sent unchanged`);
}

function python() {
  if (process.env.CONTEXT_COMPACTOR_PYTHON) return process.env.CONTEXT_COMPACTOR_PYTHON;
  try {
    const marker = JSON.parse(readFileSync(fileURLToPath(new URL("./.context-compactor.json", import.meta.url)), "utf8"));
    if (typeof marker.python === "string" && marker.python) return marker.python;
  } catch {}
  return "python3";
}

function pluginConfig() {
  const cfg = G.api?.pluginConfig;
  return cfg && typeof cfg === "object" ? cfg : {};
}

function seconds(name, fallback) {
  const v = pluginConfig()[name];
  return typeof v === "number" && v > 0 ? v : fallback;
}

function defaultModel() {
  const m = G.api?.config?.agents?.defaults?.model;
  return typeof m === "string" ? m : typeof m?.primary === "string" ? m.primary : null;
}

function configureParams() {
  return { config: pluginConfig(), llm: typeof G.api?.runtime?.llm?.complete === "function", model: defaultModel() };
}

// Whether `value` nests deeper than `limit` (a loop, not recursion: any depth is safe to ask about).
function tooDeep(value, limit) {
  const stack = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

// A copy of `value` in which whatever sits `limit` levels down is replaced by its JSON text.
function bounded(value, limit, depth = 0) {
  if (value === null || typeof value !== "object" || typeof value.toJSON === "function") return value;
  if (depth >= limit) {
    try {
      return JSON.stringify(value) ?? null;
    } catch {
      return "[not serialisable]";
    }
  }
  if (Array.isArray(value)) return value.map((v) => bounded(v, limit, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v, limit, depth + 1)]));
}

// Write one line to the child; throws when it cannot be written (the request then fails at once).
function send(obj) {
  if (!G.child) throw new Error("the Python bridge is not running");
  G.child.stdin.write(JSON.stringify(tooDeep(obj, MAX_DEPTH) ? bounded(obj, MAX_DEPTH) : obj) + "\n");
}

function trySend(obj) {
  try {
    send(obj);
  } catch (e) {
    log().warn(`cannot write to the Python bridge: ${e?.message}`);
  }
}

async function answerCall(msg) {
  // The bridge asks for a summary from the session model, while it serves request msg.for. The call
  // must run in that request's async context: OpenClaw scopes its work per turn, and the context of
  // the child's stdout is the turn that started the child, long closed.
  const within = G.pending.get(msg.for)?.within ?? [...G.pending.values()].at(-1)?.within ?? ((f) => f());
  try {
    if (msg.method !== "llm.complete" || typeof G.api?.runtime?.llm?.complete !== "function") {
      throw new Error(`${msg.method} is not available here`);
    }
    const p = msg.params ?? {};
    const llm = G.api.runtime.llm;
    const r = await within(() => llm.complete({
      messages: p.messages, systemPrompt: p.systemPrompt, maxTokens: p.maxTokens, purpose: p.purpose,
    }));
    trySend({ reply: msg.call, result: { text: r?.text ?? "", usage: r?.usage ?? null } });
  } catch (e) {
    trySend({ reply: msg.call, error: { message: String(e?.message ?? e) } });
  }
}

function onLine(line) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    log().warn(`unreadable line from the Python bridge: ${line.slice(0, 200)}`);
    return;
  }
  if (msg && msg.call !== undefined) return void answerCall(msg);
  const waiter = G.pending.get(msg?.id);
  if (!waiter) return; // an answer that came after its timeout
  G.pending.delete(msg.id);
  clearTimeout(waiter.timer);
  if (msg.error) return void waiter.reject(new Error(msg.error.message ?? "bridge error"));
  if (waiter.method !== "configure") G.deaths = 0; // this child serves turns: the next death pauses 1 s again
  waiter.resolve(msg.result);
}

function failPending(reason) {
  for (const [id, waiter] of G.pending) {
    clearTimeout(waiter.timer);
    waiter.reject(new Error(reason));
    G.pending.delete(id);
  }
}

function start() {
  G.starts += 1;
  const restart = G.starts > 1;
  const exe = python();
  const child = spawn(exe, ["-m", "context_compactor.bridge"], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, PYTHONIOENCODING: "utf-8" },
  });
  G.child = child;
  child.stdin.on("error", () => {}); // EPIPE when the child died: handled by "exit"
  createInterface({ input: child.stdout }).on("line", onLine);
  createInterface({ input: child.stderr }).on("line", (line) => log().info(line));
  const gone = (why) => {
    if (G.child !== child) return;
    G.child = null;
    G.configJson = null;
    failPending(`the Python bridge stopped (${why})`);
    G.deaths += 1;
    const pause = backoffMs(G.deaths);
    G.retryAt = Date.now() + pause;
    G.lastDeath = `the Python bridge (${exe} -m context_compactor.bridge) stopped (${why})`;
    recordHealth({ crashes: G.health.crashes + 1, lastCrash: { at: new Date().toISOString(), why, pid: child.pid ?? null } });
    warn(`${G.lastDeath}; ${G.deaths} time(s) in a row; it is started again on a call after ${pause / 1000} s ` +
      "(run `context-compactor doctor` if this repeats)");
  };
  child.on("error", (e) => gone(e?.code === "ENOENT" ? `no interpreter at ${exe}` : String(e?.message ?? e)));
  child.on("exit", (code, signal) => gone(signal ? `signal ${signal}` : `exit code ${code}`));
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) s?.unref?.();
  if (!G.exitHooked) {
    G.exitHooked = true;
    process.once("exit", () => G.child?.kill());
  }
  log().info(`started the Python bridge: ${exe} -m context_compactor.bridge (pid ${child.pid})`);
  recordHealth({ starts: G.starts, restarts: G.health.restarts + (restart ? 1 : 0), pid: child.pid ?? null });
}

// A child that did not answer `method` within its limit: killed by its PID, every request waiting on it
// fails now, and the next call starts a new child at once (a hang is not a crash loop: no pause).
function hung(method, timeoutMs) {
  const child = G.child;
  if (!child) return;
  G.child = null;
  G.configJson = null;
  G.retryAt = 0;
  const why = `no answer to ${method} within ${timeoutMs / 1000} s`;
  try {
    process.kill(child.pid, "SIGKILL");
  } catch {}
  failPending(`the Python bridge (pid ${child.pid}) was killed: ${why}`);
  recordHealth({ hangs: G.health.hangs + 1, lastHang: { at: new Date().toISOString(), method, seconds: timeoutMs / 1000, pid: child.pid ?? null } });
  warn(`the Python bridge (pid ${child.pid}) gave ${why}: killed it; a new one is started on the next call ` +
    "(run `context-compactor doctor` if this repeats)");
}

function rawRequest(method, params, limit) {
  const timeoutMs = limitMs(limit);
  const child = G.child;
  return new Promise((resolve, reject) => {
    const id = G.nextId++;
    const timer = setTimeout(() => {
      G.pending.delete(id);
      reject(new Error(`${method}: no answer from the Python bridge within ${timeoutMs / 1000} s`));
      if (G.child === child) hung(method, timeoutMs);
    }, timeoutMs);
    const within = typeof AsyncLocalStorage.snapshot === "function" ? AsyncLocalStorage.snapshot() : null;
    G.pending.set(id, { resolve, reject, timer, within, method });
    try {
      send({ id, method, params });
    } catch (e) {
      clearTimeout(timer);
      G.pending.delete(id);
      reject(new Error(`${method}: cannot write to the Python bridge: ${e?.message ?? e}`));
    }
  });
}

// One call to the bridge: starts (or, after its pause, restarts) the child, configures it, then asks.
async function request(method, params, timeoutMs) {
  if (!G.child) {
    const wait = G.retryAt - Date.now();
    if (wait > 0) throw new Error(`${G.lastDeath}; it is started again in ${Math.ceil(wait / 1000)} s`);
    start();
  }
  const configJson = JSON.stringify(configureParams());
  if (G.configJson !== configJson) {
    G.configJson = configJson;
    const configured = await rawRequest("configure", JSON.parse(configJson), 30000).catch((e) => {
      G.configJson = null;
      throw e;
    });
    const recall = (configured?.tools ?? []).find((t) => t?.name === "recall_history") ?? configured?.recall;
    if (recall) G.recallSpec = recall;
    if (typeof configured?.summaryPrompt === "string" && configured.summaryPrompt) G.ownSummary = configured.summaryPrompt;
  }
  return rawRequest(method, params, timeoutMs);
}

export { G, log, pluginConfig, request, seconds, warn };
