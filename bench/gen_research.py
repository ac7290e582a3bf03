"""Long ML-research agent sessions (experiment tracking) with planted facts, for the fidelity bench.

    from gen_research import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens at 4 chars a token
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

One researcher and an agent with run_python, shell, read_file, write_file, wandb_query, slurm and
arxiv_search, in OpenAI chat format (user turns, assistant ``tool_calls``, ``tool`` results). The
researcher is terse, lowercase, makes typos, asks several things at once, drops Polish, Dutch and
Japanese words, states rules indirectly (often in a second paragraph), corrects things long after
saying them ("wait no, it was the 7b ckpt"), revises decisions, and pastes reviewer comments,
YAML, stack traces and tensorboard CSVs (``Session.pasted``). Tools print training logs, squeue
and sacct tables, wandb summaries, eval tables, nvidia-smi, git logs and arxiv listings.

Planted facts (``Session.facts``), of eight kinds: instruction, correction (``stale`` is the value
it replaced), decision (the latest revision; ``stale`` the one it revised, when revised), error,
file (written or edited by the agent), identifier, finding (what a tool printed), plan. Six of each
kind at 400 messages, twelve at 3000. They sit between 3% and 88% of the session; the rest is
routine work. A fact's value occurs in no other message before its own, and no filler message
contains it anywhere. Deterministic from the seed; the session ends on a user turn.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sessiongen import Fact, Session

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
SPAN = (0.03, 0.88)  # facts are planted in this part of the session
BANDS = ((0.03, 0.3), (0.3, 0.6), (0.6, 0.88))
MARK_OPEN, MARK_CLOSE = "\u00ab", "\u00bb"  # marks a value inside a template; removed when rendered

SYSTEM = (
    "You are a research engineering agent working for one ML researcher on a language-model "
    "pretraining and post-training project. You can call tools: run_python (runs a snippet in the "
    "project venv, returns stdout/stderr), shell (bash on the login node), read_file, write_file, "
    "wandb_query (queries the team's wandb entity: runs, sweeps, histories), slurm (sbatch, squeue, "
    "sacct, scancel on the cluster) and arxiv_search. Be concise. Report numbers exactly as tools "
    "print them. Ask before cancelling jobs that you did not launch. The cluster has a100 and h100 "
    "partitions; login nodes must not run training."
)

WORDS = ["qknorm", "nope", "alibi", "swiglu", "moe", "dense", "kvshare", "gqa", "mqa", "lowrank", "rmsnorm",
         "postln", "muon", "lion", "sophia", "zloss", "wsd", "longctx", "pack", "nopack", "dedup", "fim",
         "curric", "distill", "dpo", "sft", "orpo", "kto", "rmhead", "mup", "tiedemb", "untied", "bigvocab",
         "mathmix", "codemix", "webonly", "synth", "rephrase", "filt", "lowlr", "warmfix", "embnorm",
         "parallel", "seqpar", "fp8", "clipfix", "softcap", "yarn", "ntk", "slidewin", "chunked", "mtp"]
PEOPLE = ["marta", "joost", "kenji", "ania", "daan", "yuki", "piotr", "sanne", "haruto", "ola"]
TASKS = ["arc_challenge", "hellaswag", "mmlu", "gsm8k", "humaneval", "piqa", "winogrande", "boolq",
         "triviaqa", "lambada_openai", "mbpp", "bbh", "drop", "openbookqa"]
MMLU = ["abstract_algebra", "anatomy", "astronomy", "business_ethics", "clinical_knowledge", "college_biology",
        "college_chemistry", "college_computer_science", "college_mathematics", "college_physics", "computer_security",
        "conceptual_physics", "econometrics", "electrical_engineering", "elementary_mathematics", "formal_logic",
        "global_facts", "high_school_biology", "high_school_chemistry", "high_school_physics", "human_aging",
        "international_law", "jurisprudence", "logical_fallacies", "machine_learning", "management", "marketing",
        "medical_genetics", "moral_disputes", "nutrition", "philosophy", "prehistory", "professional_law", "virology"]
PARTS = ["a100", "h100", "h100-long", "preempt", "debug"]
ASIDES = ["(sorry, on my phone)", "(coffee machine is broken again)", "(no rush)", "(ugh)",
          "(the usual)", "(i think?)", "(as always lol)", "(maa, shikata ga nai)", "(no dobra)",
          "(nou ja)", "(kurde)", "(yabai)", "(hopefully)", "(long day)", "(dont ask)"]
FOREIGN = ["jutro", "dzieki", "klopt", "even", "lekker", "otsukare", "yoroshiku", "na pewno", "nou",
           "zettai", "daijoubu", "ok dobra", "doei", "gezellig"]
CHAT_SUFFIX = ["", "", "", " thx", " ty", " pls", " dzieki", " :)", " (no rush)", " arigato", " bedankt"]


# --- small helpers ------------------------------------------------------------------------------


def typo(rng: random.Random, text: str, rate: float = 0.05) -> str:
    """The researcher's typing: shorthand and the odd swapped or dropped letter, never inside « »."""
    out, protected = [], False
    for token in re.split(r"(\s+|\u00ab|\u00bb)", text):
        if token == MARK_OPEN:
            protected = True
        elif token == MARK_CLOSE:
            protected = False
        if protected or not token.isalpha() or len(token) < 4:
            out.append({"you": "u", "your": "ur"}.get(token, token) if not protected else token)
            continue
        short = {"please": "pls", "because": "bc", "tomorrow": "tmrw", "though": "tho", "thanks": "thx",
                 "probably": "prob", "without": "w/o", "something": "smth", "before": "b4"}
        if token in short and rng.random() < 0.6:
            out.append(short[token])
            continue
        roll = rng.random()
        if roll < rate:
            i = rng.randrange(len(token) - 1)
            token = token[:i] + token[i + 1] + token[i] + token[i + 2:]
        elif roll < rate * 1.6:
            i = rng.randrange(1, len(token))
            token = token[:i] + token[i + 1:]
        out.append(token)
    return "".join(out)


def render(text: str) -> tuple[str, str | None]:
    """Drop the « » marks; return the text and the first marked span (the value)."""
    m = re.search(f"{MARK_OPEN}(.*?){MARK_CLOSE}", text, re.S)
    value = m.group(1) if m else None
    return text.replace(MARK_OPEN, "").replace(MARK_CLOSE, ""), value


def hexs(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))


class Builder:
    """Accumulates messages; every tool call gets a fresh id."""

    def __init__(self, rng: random.Random, reserved: tuple[str, ...] = ()) -> None:
        self.rng = rng
        self.messages: list[Message] = [{"role": "system", "content": SYSTEM}]
        self.pasted: list[tuple[int, str]] = []
        self.reserved = reserved
        self.calls = 0
        self.day = 0
        self.step_clock = 0

    # message makers (return dicts; episodes are lists of them)
    def user(self, text: str) -> Message:
        return {"role": "user", "content": text}

    def say(self, text: str) -> Message:
        return {"role": "assistant", "content": text}

    def call(self, name: str, args: dict[str, Any], text: str | None = None) -> tuple[Message, str]:
        self.calls += 1
        cid = f"call_{self.calls:05d}{hexs(self.rng, 6)}"
        msg = {"role": "assistant", "content": text,
               "tool_calls": [{"id": cid, "type": "function",
                               "function": {"name": name, "arguments": json.dumps(args)}}]}
        return msg, cid

    def result(self, cid: str, name: str, text: str) -> Message:
        return {"role": "tool", "tool_call_id": cid, "name": name, "content": text}

    def tool(self, name: str, args: dict[str, Any], output: str, text: str | None = None) -> list[Message]:
        msg, cid = self.call(name, args, text)
        return [msg, self.result(cid, name, output)]

    def clean(self, episode: list[Message]) -> bool:
        return not any(v in text for text in map(_text, episode) for v in self.reserved)

    def found(self, episode: list[Message]) -> set[str]:
        return {v for text in map(_text, episode) for v in self.reserved if v in text}


def _text(message: Message) -> str:
    parts = [str(message.get("content") or "")]
    for call in message.get("tool_calls") or []:
        parts.append(call["function"]["arguments"])
    return "\n".join(parts)


# --- names the noise and the facts draw from ----------------------------------------------------


def run_name(rng: random.Random) -> str:
    size = rng.choice(["160m", "410m", "1b", "1.4b", "3b", "7b", "13b"])
    return f"{size}-{rng.choice(WORDS)}-{rng.choice(['lr', 'bs', 's', 'v'])}{rng.randint(1, 40)}"


def node(rng: random.Random) -> str:
    return rng.choice([f"gpu-a{rng.randint(1, 48):02d}", f"hgx{rng.randint(100, 163)}", f"gn{rng.randint(1, 9)}0{rng.randint(1, 9)}"])


def job_id(rng: random.Random) -> str:
    return str(rng.randint(4_100_000, 4_999_999))


def lr_str(rng: random.Random) -> str:
    return f"{rng.choice([1, 2, 3, 4, 6, 8])}.00e-0{rng.choice([3, 4, 5])}"


def timestamp(rng: random.Random, day: int) -> str:
    return f"2026-10-{(day % 27) + 1:02d} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


# --- tool outputs (noise bodies) -----------------------------------------------------------------


def train_log(rng: random.Random, run: str, lines: int, day: int, start: int | None = None, spike: int | None = None) -> str:
    step = start if start is not None else rng.randint(1, 80) * 500
    total = step + rng.randint(20, 120) * 1000
    loss = rng.uniform(1.9, 3.4)
    lr = rng.uniform(1e-4, 6e-4)
    out = [f"==> logs/{run}/rank0.log <==", f"[{timestamp(rng, day)}] resuming from ckpt step {step}"]
    for _ in range(lines):
        step += rng.choice([50, 100, 100, 200])
        loss = max(1.2, loss + rng.gauss(-0.002, 0.02))
        gn = abs(rng.gauss(0.35, 0.12)) + 0.05
        if spike is not None and step >= spike:
            loss, gn = loss * rng.uniform(1.3, 1.8), gn * rng.uniform(20, 200)
        out.append(f"[{timestamp(rng, day)}] step {step:>6}/{total} | loss {loss:.4f} | lr {lr:.3e} | grad_norm "
                   f"{gn:.3f} | tok/s/gpu {rng.randint(2400, 4100):,} | mem {rng.uniform(40, 78):.1f}GiB | "
                   f"data_time {rng.uniform(0.001, 0.09):.3f}s")
        if rng.random() < 0.05:
            out.append(f"[{timestamp(rng, day)}] saved checkpoint to /ckpt/{run}/step_{step} ({rng.uniform(8, 90):.1f} GB, {rng.randint(20, 200)}s)")
    return "\n".join(out)


def squeue(rng: random.Random, user: str = "rsrch") -> str:
    rows = ["             JOBID PARTITION                 NAME     USER ST       TIME  NODES NODELIST(REASON)"]
    for _ in range(rng.randint(20, 60)):
        st = rng.choice(["R", "R", "R", "PD", "PD", "CG"])
        reason = node(rng) if st != "PD" else rng.choice(["(Priority)", "(Resources)", "(QOSMaxJobsPerUserLimit)", "(Dependency)"])
        rows.append(f"{job_id(rng):>18} {rng.choice(PARTS):>9} {run_name(rng)[:20]:>20} {user:>8} {st:>2} "
                    f"{rng.randint(0, 47)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {rng.choice([1, 1, 2, 4, 8]):>6} {reason}")
    return "\n".join(rows)


def sacct(rng: random.Random, jid: str, state: str | None = None, nodes: str | None = None) -> str:
    state = state or rng.choice(["COMPLETED", "COMPLETED", "RUNNING", "TIMEOUT", "FAILED", "CANCELLED+"])
    head = ("JobID           JobName  Partition    Elapsed      State ExitCode     MaxRSS        NodeList\n"
            "------------ ---------- ---------- ---------- ---------- -------- ---------- ---------------")
    nodes = nodes or node(rng)
    rows = []
    for extra in range(rng.randint(0, 6)):
        other = f"{jid}_{extra}"
        rows.append(f"{other:<12} {run_name(rng)[:10]:>10} {rng.choice(PARTS):>10} {rng.randint(0, 47):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {'COMPLETED':>10} {'0:0':>8} {rng.uniform(2, 400):>9.1f}G {node(rng):>15}")
    rows += [f"{jid:<12} {run_name(rng)[:10]:>10} {rng.choice(PARTS):>10} {rng.randint(0, 47):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {state:>10} {rng.choice(['0:0', '1:0', '0:15']):>8} {'':>10} {nodes:>15}"]
    for sub in ("batch", "extern", "0"):
        rows.append(f"{jid + '.' + sub:<12} {sub:>10} {'':>10} {rng.randint(0, 47):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {state:>10} {'0:0':>8} {rng.uniform(2, 400):>9.1f}G {nodes:>15}")
    return head + "\n" + "\n".join(rows)


def wandb_table(rng: random.Random, n: int | None = None) -> str:
    rows = ["name                          id        state     _step   train/loss  val/loss   lr          runtime",
            "----------------------------  --------  --------  ------  ----------  --------   ----------  -------"]
    for _ in range(n or rng.randint(20, 50)):
        rows.append(f"{run_name(rng):<28}  {alnum(rng, 8)}  {rng.choice(['finished', 'running', 'crashed', 'killed']):<8}  "
                    f"{rng.randint(1, 120) * 500:>6}  {rng.uniform(1.8, 3.3):>10.3f}  {rng.uniform(1.9, 3.4):>8.3f}   "
                    f"{lr_str(rng):<10}  {rng.randint(1, 70)}h{rng.randint(0, 59):02d}m")
    return "\n".join(rows)


def eval_table(rng: random.Random, ckpt: str, fixed: tuple[str, str] | None = None) -> str:
    rows = [f"eval results for {ckpt} (lm-eval-harness, bs=auto, dtype=bfloat16)", "",
            "|     Task      |Version|Filter|n-shot| Metric |Value |   |Stderr|",
            "|---------------|------:|------|-----:|--------|-----:|---|-----:|"]
    tasks = rng.sample(TASKS, rng.randint(5, 9)) + [f"mmlu_{t}" for t in rng.sample(MMLU, rng.randint(20, 34))]
    if fixed and fixed[0] not in tasks:
        tasks[0] = fixed[0]
    for task in tasks:
        value = fixed[1] if fixed and task == fixed[0] else f"{rng.uniform(0.2, 0.85):.3f}"
        rows.append(f"|{task:<15}|{rng.randint(0, 3):>7}|none  |{rng.choice([0, 5, 8, 25]):>6}|acc     |{value}|\u00b1  |{rng.uniform(0.003, 0.02):.4f}|")
    return "\n".join(rows)


def yaml_config(rng: random.Random, run: str, override: tuple[str, str] | None = None) -> str:
    d = rng.choice([768, 1024, 2048, 3072, 4096])
    fields = [
        ("run_name", run), ("seed", str(rng.randint(0, 9))),
        ("model.d_model", str(d)), ("model.n_layers", str(rng.choice([12, 16, 24, 32]))),
        ("model.n_heads", str(d // 128)), ("model.n_kv_heads", str(rng.choice([1, 2, 4, 8]))),
        ("model.rope_theta", str(rng.choice([10000, 500000, 1000000]))), ("model.vocab_size", str(rng.choice([32000, 50304, 100352, 128256]))),
        ("model.norm", rng.choice(["rmsnorm", "layernorm"])), ("model.activation", "swiglu"),
        ("optim.name", "adamw"), ("optim.lr", lr_str(rng)), ("optim.betas", "[0.9, 0.95]"),
        ("optim.weight_decay", str(rng.choice([0.0, 0.01, 0.1]))), ("optim.eps", "1.0e-08"),
        ("sched.name", rng.choice(["cosine", "wsd", "linear"])), ("sched.warmup_steps", str(rng.choice([500, 1000, 2000]))),
        ("sched.min_lr_ratio", "0.1"), ("data.path", f"/data/pretrain/{rng.choice(WORDS)}"),
        ("data.seq_len", str(rng.choice([2048, 4096, 8192]))), ("data.num_workers", str(rng.choice([4, 8, 16]))),
        ("trainer.global_batch_size", str(rng.choice([256, 512, 1024]))), ("trainer.micro_batch_size", str(rng.choice([2, 4, 8]))),
        ("trainer.max_steps", str(rng.randint(10, 120) * 1000)), ("trainer.eval_interval", str(rng.choice([500, 1000]))),
        ("trainer.save_interval", str(rng.choice([1000, 2000, 5000]))), ("trainer.precision", "bf16-mixed"),
        ("trainer.grad_clip", "1.0"), ("logging.wandb_project", rng.choice(["pretrain", "ablations", "posttrain"])),
        ("logging.log_interval", "10"), ("logging.log_grad_norm_per_layer", rng.choice(["true", "false"])),
        ("fsdp.sharding_strategy", rng.choice(["FULL_SHARD", "HYBRID_SHARD", "SHARD_GRAD_OP"])), ("fsdp.activation_checkpointing", "true"),
        ("fsdp.cpu_offload", "false"), ("fsdp.limit_all_gathers", "true"), ("fsdp.backward_prefetch", "BACKWARD_PRE"),
        ("checkpoint.dir", f"/ckpt/{run}"), ("checkpoint.keep_last", str(rng.choice([2, 3, 5]))), ("checkpoint.async_save", "true"),
        ("eval.tasks", "[hellaswag, arc_challenge, mmlu, gsm8k]"), ("eval.batch_size", "auto"), ("eval.num_fewshot", "5"),
        ("eval.limit", "null"), ("profiling.enabled", "false"), ("profiling.wait", "5"), ("profiling.active", "3"),
        ("slurm.partition", rng.choice(PARTS)), ("slurm.nodes", str(rng.choice([1, 2, 4, 8]))), ("slurm.gpus_per_node", "8"),
        ("slurm.time", f"{rng.randint(4, 47)}:00:00"), ("slurm.exclusive", "true"), ("env.NCCL_IB_TIMEOUT", "22"),
        ("env.TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"), ("env.CUDA_DEVICE_MAX_CONNECTIONS", "1"),
    ]
    out, section = [], None
    for key, value in fields:
        if override and key.endswith(override[0]):
            value = override[1]
        if "." in key:
            top, sub = key.split(".", 1)
            if top != section:
                out.append(f"{top}:")
                section = top
            out.append(f"  {sub}: {value}")
        else:
            out.append(f"{key}: {value}")
    return "\n".join(out)


def nvidia_smi(rng: random.Random) -> str:
    out = ["+-----------------------------------------------------------------------------------------+",
           "| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |",
           "|-----------------------------------------+------------------------+----------------------+",
           "| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |",
           "| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |",
           "|=========================================+========================+======================|"]
    for g in range(8):
        used = rng.randint(200, 80000)
        out.append(f"|   {g}  NVIDIA H100 80GB HBM3          On  |   00000000:{rng.randint(10, 99)}:00.0 Off |                    0 |")
        out.append(f"| N/A   {rng.randint(28, 78)}C    P0            {rng.randint(70, 690)}W /  700W |  {used:>5}MiB /  81559MiB |     {rng.randint(0, 100):>3}%      Default |")
    out.append("+-----------------------------------------------------------------------------------------+")
    return "\n".join(out)


def git_log(rng: random.Random) -> str:
    msgs = ["fix eval loader for packed seqs", "add wsd schedule", "bump flash-attn", "sweep configs for 1b",
            "log grad norm per layer", "dataloader: skip empty docs", "plotting utils", "rm dead code",
            "tokenizer: add fim tokens", "ckpt: async save", "eval: pin lm-eval version", "README update"]
    return "\n".join(f"{hexs(rng, 7)} {rng.choice(msgs)} ({rng.randint(1, 20)} days ago) <{rng.choice(PEOPLE)}>" for _ in range(rng.randint(6, 14)))


def arxiv_results(rng: random.Random, query: str) -> str:
    a = ["Scaling", "Revisiting", "On the", "Understanding", "Efficient", "Stable", "Towards"]
    b = ["Warmup", "Loss Spikes", "Data Mixtures", "Long-Context Extension", "Deduplication", "Preference Optimization",
         "Tokenizer Choice", "Learning Rate Schedules", "Small Language Models", "Mixture-of-Experts Routing"]
    c = ["in Transformer Pretraining", "at Scale", "for Language Models", "Without Tears", "Revisited", "via Proxy Models"]
    out = [f'arxiv_search("{query}") -> {rng.randint(5, 8)} results']
    for i in range(rng.randint(4, 7)):
        aid = f"{rng.choice([23, 24, 25, 26])}{rng.randint(1, 12):02d}.{rng.randint(1000, 29999):05d}"
        out.append(f"\n[{i + 1}] arXiv:{aid}  {rng.choice(a)} {rng.choice(b)} {rng.choice(c)}")
        out.append(f"    {rng.choice(PEOPLE).title()} et al., {rng.choice(['cs.LG', 'cs.CL'])}")
        out.append("    " + " ".join(rng.choice(["we", "show", "that", "training", "instabilities", "arise", "from",
                                                   "the", "interaction", "of", "learning", "rate", "and", "scale", "our",
                                                   "method", "reduces", "loss", "spikes", "across", "model", "sizes",
                                                   "data", "mixtures", "evaluation", "benchmarks", "improves"])
                                        for _ in range(rng.randint(40, 70))) + ".")
    return "\n".join(out)


def traceback(rng: random.Random, final: str) -> str:
    frames = [("train.py", "main", "trainer.fit(model, data)"), ("src/trainer/loop.py", "fit", "loss = self.step(batch)"),
              ("src/trainer/loop.py", "step", "out = self.model(**batch)"),
              ("torch/nn/modules/module.py", "_call_impl", "return forward_call(*args, **kwargs)"),
              ("src/model/transformer.py", "forward", "h = block(h, rope=self.rope)"),
              ("src/model/attention.py", "forward", "o = flash_attn_func(q, k, v, causal=True)"),
              ("torch/utils/checkpoint.py", "checkpoint", "return CheckpointFunction.apply(function, *args)")]
    out = ["Traceback (most recent call last):"]
    for path, fn, line in frames[:rng.randint(4, len(frames))]:
        prefix = "/opt/venv/lib/python3.11/site-packages/" if path.startswith("torch") else "/home/rsrch/proj/"
        out.append(f'  File "{prefix}{path}", line {rng.randint(20, 900)}, in {fn}')
        out.append(f"    {line}")
    out.append(final)
    return "\n".join(out)


def tb_csv(rng: random.Random) -> str:
    step, v = rng.randint(0, 20) * 1000, rng.uniform(2.2, 3.2)
    rows = ["Wall time,Step,Value"]
    for _ in range(rng.randint(25, 60)):
        step += 250
        v = max(1.5, v + rng.gauss(-0.004, 0.01))
        rows.append(f"{1.79e9 + step * 3.1:.3f},{step},{v:.5f}")
    return "\n".join(rows)


CODE_BLOCKS = [
    """def build_optimizer(model, cfg):
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        if not p.requires_grad:
            continue
        (no_decay if p.ndim < 2 or "norm" in name or "bias" in name else decay).append(p)
    groups = [{"params": decay, "weight_decay": cfg.weight_decay},
              {"params": no_decay, "weight_decay": 0.0}]
    return torch.optim.AdamW(groups, lr=cfg.lr, betas=tuple(cfg.betas), eps=cfg.eps, fused=True)
""",
    """def lr_at(step, cfg):
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    if cfg.name == "wsd":
        decay_start = int(cfg.max_steps * (1 - cfg.decay_frac))
        if step < decay_start:
            return cfg.lr
        t = (step - decay_start) / max(1, cfg.max_steps - decay_start)
        return cfg.lr * (1 - t) + cfg.lr * cfg.min_lr_ratio * t
    t = (step - cfg.warmup_steps) / max(1, cfg.max_steps - cfg.warmup_steps)
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * t)))
""",
    """class PackedDataset(torch.utils.data.IterableDataset):
    def __init__(self, paths, seq_len, seed, rank, world):
        self.paths, self.seq_len, self.seed = sorted(paths), seq_len, seed
        self.rank, self.world = rank, world

    def __iter__(self):
        rng = np.random.default_rng(self.seed)
        order = rng.permutation(len(self.paths))[self.rank::self.world]
        buf = []
        for i in order:
            for doc in read_shard(self.paths[i]):
                buf.extend(doc + [EOS])
                while len(buf) > self.seq_len:
                    yield torch.tensor(buf[: self.seq_len + 1])
                    buf = buf[self.seq_len:]
""",
    """@torch.no_grad()
def evaluate(model, loader, max_batches=200):
    model.eval()
    total, count = 0.0, 0
    for i, batch in enumerate(loader):
        if i >= max_batches:
            break
        out = model(batch["input_ids"].cuda(), labels=batch["labels"].cuda())
        total += out.loss.float().item() * batch["input_ids"].numel()
        count += batch["input_ids"].numel()
    model.train()
    return total / max(count, 1)
""",
    """def save_checkpoint(state, path, keep_last=3):
    tmp = path.with_suffix(".tmp")
    torch.save(state, tmp)
    os.replace(tmp, path)
    ckpts = sorted(path.parent.glob("step_*"), key=lambda p: int(p.name.split("_")[1]))
    for old in ckpts[:-keep_last]:
        shutil.rmtree(old, ignore_errors=True)
    log.info("saved %s", path)
""",
    """def apply_rope(q, k, cos, sin):
    def rotate_half(x):
        x1, x2 = x.chunk(2, dim=-1)
        return torch.cat((-x2, x1), dim=-1)
    q = (q * cos) + (rotate_half(q) * sin)
    k = (k * cos) + (rotate_half(k) * sin)
    return q, k
""",
    """def train_step(model, batch, opt, scaler, cfg):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(**batch).loss / cfg.grad_accum
    loss.backward()
    if (cfg.step + 1) % cfg.grad_accum == 0:
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.grad_clip)
        if not torch.isfinite(gn):
            opt.zero_grad(set_to_none=True)
            return loss.detach(), gn, True
        opt.step()
        opt.zero_grad(set_to_none=True)
    return loss.detach(), gn, False
""",
]


def code_file(rng: random.Random) -> str:
    head = "import math\nimport os\nimport shutil\n\nimport numpy as np\nimport torch\n\nfrom .utils import EOS, log, read_shard\n\n\n"
    return head + "\n\n".join(rng.sample(CODE_BLOCKS, rng.randint(4, 7)))


REVIEW_LINES = [
    "The paper is clearly written and the ablations are extensive.",
    "My main concern is that the improvements are within seed variance for most tasks.",
    "The authors should report the standard deviation over at least three seeds.",
    "Please clarify how the data mixture weights were chosen; they appear tuned on the evaluation set.",
    "It is unclear whether the baseline received the same tuning budget.",
    "The authors must compare against a stronger baseline such as a tuned cosine schedule.",
    "Figure 3 is hard to read; consider a log scale for the x-axis.",
    "The claim in Section 4.2 that the method is compute-neutral is not supported by the wall-clock numbers.",
    "Minor: several references are missing venues.",
    "I would raise my score if the long-context results were extended beyond 32k tokens.",
    "The related work omits recent results on loss spikes in large-scale training.",
    "Always include the total compute in GPU-hours for each row of Table 2.",
]


# --- noise episodes --------------------------------------------------------------------------------


def ask(rng: random.Random, *parts: str) -> str:
    """Glue one or more asks the way the researcher types them."""
    glue = rng.choice([" + ", ". also ", "\n", " and ", ", then "])
    text = glue.join(parts)
    if rng.random() < 0.25:
        text += " " + rng.choice(ASIDES)
    if rng.random() < 0.12:
        text = rng.choice(FOREIGN) + ", " + text
    return typo(rng, text) + rng.choice(CHAT_SUFFIX)


def noise_asks(rng: random.Random) -> str:
    return rng.choice([
        "check the queue", "how's the 1b run doing", "pull the latest val curves", "any new crashes overnight?",
        "check if the eval jobs finished", "what's the loss on the longctx run now", "look at gpu util on the h100 nodes",
        "find me papers on loss spikes", "is the sweep done", "check disk on /scratch", "summarize yesterday's runs",
        "can you diff the two configs", "grep the logs for nan", "how many gpu hours did we burn this week",
    ])


def ep_queue(b: Builder) -> list[Message]:
    rng = b.rng
    out = squeue(rng)
    running = out.count(" R ")
    return [b.user(ask(rng, "check the queue", rng.choice(["anything stuck in PD?", "did the evals start", "how long till the 7b gets nodes"]))),
            *b.tool("slurm", {"cmd": "squeue -u rsrch -o '%.18i %.9P %.20j %.8u %.2t %.10M %.6D %R'"}, out),
            b.say(f"{running} running, the rest pending ({rng.choice(['Priority', 'Resources', 'QOS limit'])}). Nothing failed since the last check.")]


def ep_trainlog(b: Builder) -> list[Message]:
    rng = b.rng
    run = run_name(rng)
    log = train_log(rng, run, rng.randint(90, 220), b.day)
    last = log.rsplit("loss ", 1)[1].split(" ")[0]
    return [b.user(ask(rng, f"hows {run} looking", rng.choice(["any spikes?", "is it still learning", "grad norm ok?", "mem ok?"]))),
            *b.tool("shell", {"cmd": f"tail -n 80 /home/rsrch/proj/logs/{run}/rank0.log"}, log),
            b.say(f"{run} is healthy: loss {last} at the last logged step, grad norm stable, no skipped steps. "
                  f"Throughput is in the usual band for this partition.")]


def ep_wandb(b: Builder) -> list[Message]:
    rng = b.rng
    proj = rng.choice(["pretrain", "ablations", "posttrain", "longctx"])
    table = wandb_table(rng)
    return [b.user(ask(rng, f"pull the {proj} runs from wandb", rng.choice(["sort by val loss", "only the finished ones", "whats crashed"]))),
            *b.tool("wandb_query", {"project": f"rsrch-lab/{proj}", "filters": {"state": {"$in": ["finished", "running", "crashed"]}},
                                    "keys": ["train/loss", "val/loss", "lr"], "limit": 20}, table),
            b.say(f"Here are the {proj} runs. {table.count('crashed')} crashed, {table.count('running')} still running; "
                  "the best val/loss among finished runs is the top row after sorting.")]


def ep_eval(b: Builder) -> list[Message]:
    rng = b.rng
    ckpt = f"/ckpt/{run_name(rng)}/step_{rng.randint(1, 60) * 1000}"
    out = eval_table(rng, ckpt)
    return [b.user(ask(rng, f"run the quick eval suite on {ckpt.split('/')[2]}", "whatever step is latest")),
            *b.tool("run_python", {"code": f"from evals import quick_suite\nprint(quick_suite('{ckpt}', tasks='default', limit=None))"}, out),
            b.say("Quick suite done; numbers are within noise of the previous checkpoint on most tasks.")]


def ep_config(b: Builder) -> list[Message]:
    rng = b.rng
    run = run_name(rng)
    return [b.user(ask(rng, f"what's in the config for {run}", rng.choice(["the warmup esp", "batch size?", "which data path"]))),
            *b.tool("read_file", {"path": f"configs/runs/{run}.yaml"}, yaml_config(rng, run)),
            b.say(f"That's the full config for {run}; nothing unusual versus the template.")]


def ep_arxiv(b: Builder) -> list[Message]:
    rng = b.rng
    q = rng.choice(["loss spikes large scale pretraining", "warmup stability adam", "data mixture proxy models",
                    "long context extension rope", "dpo length bias", "muP hyperparameter transfer"])
    return [b.user(ask(rng, f"find papers on {q}", rng.choice(["just the last year", "skim abstracts for me", "anything we should cite?"]))),
            *b.tool("arxiv_search", {"query": q, "max_results": 8, "sort": "relevance"}, arxiv_results(rng, q)),
            b.say("A few look relevant; the first two are closest to our setup. None contradict what we see.")]


def ep_smi(b: Builder) -> list[Message]:
    rng = b.rng
    n = node(rng)
    return [b.user(ask(rng, f"gpu util on {n}?", "feels slow")),
            *b.tool("shell", {"cmd": f"srun --jobid {job_id(rng)} -w {n} nvidia-smi"}, nvidia_smi(rng)),
            b.say(f"All eight GPUs on {n} are busy; utilization dips look like eval pauses, not a stall.")]


def ep_git(b: Builder) -> list[Message]:
    rng = b.rng
    return [b.user(ask(rng, "what changed in the repo since monday", "anything touching the dataloader")),
            *b.tool("shell", {"cmd": "git log --oneline --since='5 days ago' --format='%h %s (%cr) <%an>'"}, git_log(rng)),
            b.say("Mostly small fixes; one dataloader commit (empty docs), nothing that changes training numerics.")]


def ep_sacct(b: Builder) -> list[Message]:
    rng = b.rng
    jid = job_id(rng)
    return [b.user(ask(rng, f"what happened to {jid}", "it vanished from squeue")),
            *b.tool("slurm", {"cmd": f"sacct -j {jid} --format=JobID,JobName,Partition,Elapsed,State,ExitCode,MaxRSS,NodeList"}, sacct(rng, jid)),
            b.say(f"{jid} is no longer queued; sacct shows its final state above. I'll resubmit only if you want.")]


def ep_disk(b: Builder) -> list[Message]:
    rng = b.rng
    rows = [f"{rng.uniform(0.1, 40):.1f}T\t/data/pretrain/{w}-v{rng.randint(1, 9)}" for w in rng.sample(WORDS, rng.randint(6, 14))]
    return [b.user(ask(rng, "how full is /data", "which dataset versions are still there")),
            *b.tool("shell", {"cmd": "du -sh /data/pretrain/* | sort -h"}, "\n".join(rows)),
            b.say("Largest dirs are at the bottom of the list; old dataset versions could be pruned if we need space.")]


def ep_write(b: Builder) -> list[Message]:
    rng = b.rng
    name = f"{rng.choice(['plot', 'tmp', 'check', 'scratch'])}_{rng.choice(WORDS)}.py"
    code = "\n".join(["import pandas as pd", "import matplotlib.pyplot as plt", "", f"df = pd.read_csv('exports/{rng.choice(WORDS)}.csv')",
                      "fig, ax = plt.subplots(figsize=(6, 4))", "for name, g in df.groupby('run'):",
                      "    ax.plot(g['step'], g['val_loss'], label=name)", "ax.set_xlabel('step'); ax.set_ylabel('val loss')",
                      "ax.legend(fontsize=7)", f"fig.savefig('figs/{name[:-3]}.pdf', bbox_inches='tight')"])
    out = [b.user(ask(rng, "quick plot of val loss for the runs we just pulled", "pdf is fine"))]
    out += b.tool("write_file", {"path": f"scratch/{name}", "content": code}, f"wrote {len(code)} bytes to scratch/{name}")
    out += b.tool("shell", {"cmd": f"python scratch/{name}"}, "")
    out.append(b.say(f"Plot saved under figs/{name[:-3]}.pdf."))
    return out


def ep_pandas(b: Builder) -> list[Message]:
    rng = b.rng
    rows = ["                        run   step  val_loss  tok_per_s  gpu_hours"]
    for i in range(rng.randint(40, 90)):
        rows.append(f"{i:>3} {run_name(rng):>24} {rng.randint(1, 120) * 500:>6} {rng.uniform(1.9, 3.3):>9.3f} {rng.randint(2000, 4200):>10} {rng.uniform(10, 3000):>10.1f}")
    return [b.user(ask(rng, "table of all runs this week w/ gpu hours", "sorted")),
            *b.tool("run_python", {"code": "import pandas as pd\ndf = load_runs(since='7d')\nprint(df.sort_values('val_loss').to_string())"}, "\n".join(rows)),
            b.say("Sorted by val loss. Total GPU-hours for the week are dominated by the two largest runs.")]


def ep_routine_error(b: Builder) -> list[Message]:
    rng = b.rng
    jid, n = job_id(rng), node(rng)
    final = rng.choice([
        f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {rng.uniform(0.5, 9):.2f} GiB. GPU {rng.randint(0, 7)} has a total capacity of 79.15 GiB",
        f"RuntimeError: NCCL communicator was aborted on rank {rng.randint(0, 63)}.",
        f"OSError: [Errno 28] No space left on device: '/scratch/rsrch/tmp/{alnum(rng, 6)}'",
        "ValueError: Loss is NaN, stopping training",
    ])
    log = traceback(rng, final)
    return [b.user(ask(rng, f"{jid} died?", "restart it from the last ckpt if its the usual thing")),
            *b.tool("shell", {"cmd": f"tail -n 40 logs/slurm-{jid}.out"}, f"srun: error: {n}: task 0: Exited with exit code 1\n" + log),
            b.say(f"Transient failure on {n}; resubmitting from the last checkpoint."),
            *b.tool("slurm", {"cmd": f"sbatch --dependency=afterany:{jid} slurm/resume.sbatch"}, f"Submitted batch job {job_id(rng)}"),
            b.say("Resubmitted; it will pick up the latest checkpoint.")]


def ep_paste_review(b: Builder) -> list[Message]:
    rng = b.rng
    lines = rng.sample(REVIEW_LINES, rng.randint(4, 8))
    paste = f"Reviewer {rng.choice(['2', '3', '4'])} (score {rng.choice([3, 4, 5, 6])}, confidence {rng.choice([3, 4])}):\n" + "\n".join(lines)
    text = typo(rng, rng.choice(["new review came in, ugh:", "R-something posted this:", "pasting the review:"])) + "\n\n" + paste + "\n\n" + typo(rng, rng.choice(
        ["which of these can we answer with runs we already have?", "draft short answers, dont send anything", "thoughts? (bez paniki)"]))
    return [{"role": "user", "content": text, "_paste": paste},
            b.say("Most points can be answered from existing runs: seed variance from the three-seed ablations, compute from sacct. "
                  "The baseline-tuning concern needs one extra run. I have not drafted anything to send.")]


def ep_paste_yaml(b: Builder) -> list[Message]:
    rng = b.rng
    run = run_name(rng)
    paste = yaml_config(rng, run)
    text = typo(rng, "this is what joost used for his run, does it differ from ours?") + "\n```yaml\n" + paste + "\n```"
    return [{"role": "user", "content": text, "_paste": paste},
            *b.tool("read_file", {"path": "configs/runs/base.yaml"}, yaml_config(rng, "base")),
            b.say("Differences: learning rate, batch size and the data path; the architecture is the same.")]


def ep_paste_csv(b: Builder) -> list[Message]:
    rng = b.rng
    paste = tb_csv(rng)
    text = typo(rng, "exported from tensorboard, is this flattening or am i imagining it") + "\n" + paste
    return [{"role": "user", "content": text, "_paste": paste},
            b.say("It is still decreasing, but slowly: about 0.01 per 1k steps over the exported window.")]


def ep_paste_trace(b: Builder) -> list[Message]:
    rng = b.rng
    paste = traceback(rng, rng.choice([
        f"RuntimeError: CUDA error: an illegal memory access was encountered (rank {rng.randint(0, 63)})",
        f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {rng.uniform(0.5, 9):.2f} GiB.",
        "ValueError: Loss is NaN, stopping training"]))
    text = typo(rng, rng.choice(["my local debug run died with this:", "seen this before?", "same as last week i think:"])) + "\n```\n" + paste + "\n```"
    return [{"role": "user", "content": text, "_paste": paste},
            b.say("This is the usual one from the debug partition (a node with a bad GPU); it goes away on a resubmit. "
                  "Nothing in the code path changed.")]


def ep_chat(b: Builder) -> list[Message]:
    rng = b.rng
    return [b.user(typo(rng, rng.choice(["ok", "ok thx", "nice", "hmm ok", "fine, leave it running", "k. continue", "great, dzieki",
                                         "klopt", "ok let it cook", "maa ok", "ugh fine"]))),
            b.say(rng.choice(["Leaving it as is.", "OK, continuing.", "Noted, nothing to change.", "Will keep an eye on it."]))]




def ep_code(b: Builder) -> list[Message]:
    rng = b.rng
    path = f"src/{rng.choice(['trainer', 'data', 'model', 'optim'])}/{rng.choice(['loop', 'packing', 'schedule', 'ckpt', 'rope', 'step'])}.py"
    return [b.user(ask(rng, f"remind me what {path.rsplit('/', 1)[1]} does w/ the schedule/ckpts", "just skim")),
            *b.tool("read_file", {"path": path}, code_file(rng)),
            b.say(f"{path} holds the helpers shown above; nothing in it depends on the run config beyond the fields it reads. "
                  "The warmup is linear, checkpoints are written atomically and old ones pruned.")]


def extra_round(b: Builder) -> list[Message]:
    """A follow-up tool round the agent makes on its own before answering."""
    rng = b.rng
    pick = rng.randrange(6)
    if pick == 0:
        run = run_name(rng)
        return b.tool("shell", {"cmd": f"tail -n 100 logs/{run}/rank0.log"}, train_log(rng, run, rng.randint(90, 200), b.day),
                      rng.choice([None, "Checking the log too."]))
    if pick == 1:
        return b.tool("slurm", {"cmd": "squeue -u rsrch"}, squeue(rng))
    if pick == 2:
        jid = job_id(rng)
        return b.tool("slurm", {"cmd": f"sacct -j {jid}"}, sacct(rng, jid))
    if pick == 3:
        return b.tool("read_file", {"path": f"src/trainer/{rng.choice(['loop', 'step', 'ckpt'])}.py"}, code_file(rng))
    if pick == 4:
        return b.tool("wandb_query", {"project": "rsrch-lab/pretrain", "keys": ["val/loss"]}, wandb_table(rng))
    return b.tool("run_python", {"code": "print(eval_summary())"}, eval_table(rng, f"/ckpt/{run_name(rng)}/latest"))


def thicken(b: Builder, episode: list[Message]) -> list[Message]:
    """Add follow-up rounds before the closing answer, and a longer answer."""
    if episode[-1].get("role") != "assistant" or episode[-1].get("tool_calls") or len(episode) < 3:
        return episode
    rounds = b.rng.choices([0, 1, 2, 3], [3, 4, 2, 1])[0]
    extra = [m for _ in range(rounds) for m in extra_round(b)]
    close = dict(episode[-1])
    close["content"] = close["content"] + " " + " ".join(b.rng.sample(REMARKS, b.rng.randint(1, 4)))
    return episode[:-1] + extra + [close]


REMARKS = [
    "I also checked the queue: nothing of ours is stuck in a dependency state.",
    "The loss curve has no spikes in this window; grad norm stays well under the clip value.",
    "Throughput per GPU matches the previous week within a few percent.",
    "No new checkpoints failed to save; the async writer reports no retries.",
    "I did not change any config or resubmit anything as part of this check.",
    "Eval numbers on the quick suite move by less than one standard error between adjacent checkpoints.",
    "Disk usage on /scratch is stable; the purge policy has not touched our directories.",
    "Two runs on the preempt partition were requeued by the scheduler and resumed from their last checkpoints.",
    "The wandb sync is caught up for all running jobs.",
    "If you want, I can put these numbers into the running notes file, but I have not written anything yet.",
    "Memory headroom is comfortable on every rank, the largest being the embedding shard on rank 0.",
    "The data loader is not the bottleneck: data_time stays in the low milliseconds.",
]


NOISE: list[tuple[Callable[[Builder], list[Message]], int]] = [
    (ep_queue, 7), (ep_trainlog, 10), (ep_wandb, 7), (ep_eval, 6), (ep_config, 5), (ep_arxiv, 4), (ep_smi, 3),
    (ep_git, 3), (ep_sacct, 5), (ep_disk, 2), (ep_write, 3), (ep_pandas, 4), (ep_routine_error, 4),
    (ep_paste_review, 3), (ep_paste_yaml, 3), (ep_paste_csv, 3), (ep_paste_trace, 3), (ep_chat, 6), (ep_code, 4),
]


def noise_episode(b: Builder) -> list[Message]:
    funcs, weights = zip(*NOISE)
    for _ in range(50):
        episode = thicken(b, b.rng.choices(funcs, weights)[0](b))
        if b.clean(episode):
            return episode
    raise RuntimeError("noise keeps hitting a planted value")


def routine_tail(b: Builder) -> list[Message]:
    """What the agent does after a fact-carrying user turn: a plain tool round, without its user turn."""
    for _ in range(50):
        episode = thicken(b, b.rng.choice([ep_queue, ep_trainlog, ep_wandb, ep_config, ep_sacct, ep_pandas, ep_code])(b)[1:])
        if b.clean(episode):
            return episode
    raise RuntimeError("noise keeps hitting a planted value")


# --- planted facts -------------------------------------------------------------------------------
# A planter draws its values (``draw``) before any message exists, so the noise can avoid them,
# then writes its carrier (``emit``). Values carry random parts so each is unique in a session.


class Uniq:
    def __init__(self, rng: random.Random) -> None:
        self.rng, self.used = rng, set()

    def __call__(self, make: Callable[[random.Random], str]) -> str:
        for _ in range(200):
            value = make(self.rng)
            if value not in self.used and not any(value in u or u in value for u in self.used):
                self.used.add(value)
                return value
        raise RuntimeError("could not draw a unique value")


def abl(r: random.Random) -> str:
    return f"abl-{r.choice(WORDS)}-{r.choice('abcdefgh')}{r.randint(2, 9)}"


def fact_node(r: random.Random) -> str:
    return f"{r.choice(['sxm', 'dgx', 'hpcg'])}-{r.choice(['r', 'k', 'q'])}{r.randint(10, 99)}n{r.randint(1, 9)}"


def bucket(r: random.Random) -> str:
    return f"gs://{r.choice(['rsrch', 'lm', 'pt'])}-{r.choice(WORDS)}-{alnum(r, 5)}"


# Each template: (draw(u) -> dict with value/stale/...; text builder). Kept as small functions.

INSTRUCTIONS = [
    (lambda u: {"v": u(lambda r: f"warmup is always {r.choice([1, 2, 3])}{r.choice([1, 2, 3, 4, 6, 7, 8])}50 steps")},
     "lr {V} in this repo, whatever the sweep yaml says", "the lr warmup length to use in this repo"),
    (lambda u: {"v": u(lambda r: f"evalfrozen-{r.choice(WORDS)}-{r.randint(10, 99)}")},
     "i'd prefer we don't touch the frozen eval split ({V}), the paper numbers come from it", "which eval split must not be touched"),
    (lambda u: {"v": u(lambda r: bucket(r) + "/ckpt")},
     "checkpoints go to {V} and nowhere else pls (scratch gets purged every 30d)", "where checkpoints must be saved"),
    (lambda u: {"v": u(lambda r: f"global batch {r.choice([1, 3, 5, 7])}{r.choice([1, 3, 5, 7, 9])}2 seqs")},
     "for anything we compare against the baseline keep {V}, otherwise the curves arent comparable", "the global batch size for baseline comparisons"),
    (lambda u: {"v": u(lambda r: f"proj-{r.choice(WORDS)}{r.randint(10, 99)}")},
     "tag every wandb run with {V} or i cant find anything later", "the tag every wandb run must carry"),
    (lambda u: {"v": u(lambda r: f"max {r.randint(3, 7)} jobs in the queue on {r.choice(['h100-long', 'preempt', 'a100'])}")},
     "zasada (rule) from now on: {V}, marta complained", "the cap on queued jobs"),
    (lambda u: {"v": u(lambda r: f"mean over seeds {r.randint(11, 99)}, {r.randint(100, 999)}, {r.randint(1000, 9999)}")},
     "every number in a table is the {V}, not best-of", "which seeds table numbers average over"),
    (lambda u: {"v": u(lambda r: f"grad clip stays at {r.choice(['0.', '1.'])}{r.randint(11, 99)}")},
     "{V} no matter what the sweep finds (zettai)", "the gradient clipping value"),
    (lambda u: {"v": u(lambda r: f"/data/raw/{r.choice(WORDS)}_{alnum(r, 4)}")},
     "dont delete anything under {V} even if it looks like junk, its the only copy of those shards", "which directory must never be deleted from"),
    (lambda u: {"v": u(lambda r: f"eval every {r.choice([1, 3, 7])}{r.choice([2, 6, 8])}5 steps")},
     "for the ablations we {V}, not the default", "how often the ablations run eval"),
    (lambda u: {"v": u(lambda r: f"[exp-{r.choice(WORDS)}{r.randint(1, 9)}]")},
     "commit msgs in this repo start with {V}, the ci bot parses it", "the prefix commit messages must start with"),
    (lambda u: {"v": u(lambda r: f"conda env {r.choice(['rs', 'lm', 'pt'])}-{r.choice(WORDS)}{r.randint(2, 9)}")},
     "always use {V}, the other one has the old flash-attn and silently gives different numbers", "which conda env to use"),
    (lambda u: {"v": u(lambda r: f"bf16 for anything over {r.choice([3, 6, 8])}{r.randint(1, 9)}0m params")},
     "dtype rule: {V}, fp32 master weights always", "the dtype rule by model size"),
    (lambda u: {"v": u(lambda r: f"exclude {fact_node(r)}")},
     "nie ruszaj that node: {V} on every sbatch, its nvlink is flaky and it corrupts allreduce silently", "which node every sbatch must exclude"),
    (lambda u: {"v": u(lambda r: f"time limit {r.randint(13, 47)}:00:00")},
     "on h100-long we use {V}, anything longer gets deprioritized by the scheduler", "the time limit for h100-long jobs"),
]

CORRECTIONS = [
    (lambda u: (lambda tag: {"s": u(lambda r: f"olmo-13b-sft-{tag}"), "v": u(lambda r: f"olmo-7b-sft-{tag}")})(alnum(u.rng, 4)),
     "can u run the long-ctx evals on the {S} ckpt tonight", "wait no, it was the 7b ckpt not the 13b. {V}. sorry", "which checkpoint the long-context evals should run on"),
    (lambda u: {"s": u(lambda r: bucket(r) + "/evals"), "v": u(lambda r: bucket(r) + "/evals")},
     "dump all eval outputs in {S} from now on", "nvm the earlier bucket, use {V} (the other one is billed to someone elses grant lol)", "the bucket for eval outputs"),
    (lambda u: {"s": u(lambda r: f"seed {r.randint(1000, 9999)}"), "v": u(lambda r: f"seed {r.randint(1000, 9999)}")},
     "rerun the qknorm ablation with {S}, same everything else", "the other seed. {V}. the one i said first is the one that diverged", "the seed for the qknorm ablation rerun"),
    (lambda u: {"s": u(lambda r: f"peak lr {r.randint(2, 9)}.{r.randint(1, 9)}e-4"), "v": u(lambda r: f"peak lr {r.randint(2, 9)}.{r.randint(1, 9)}e-4")},
     "for the 1b sweep center it on {S}", "typo earlier, sweep center is {V} not what i wrote", "the learning-rate center for the 1b sweep"),
    (lambda u: (lambda ds: {"s": u(lambda r: f"{ds}-v{r.randint(2, 4)}"), "v": u(lambda r: f"{ds}-v{r.randint(5, 8)}")})(f"mix{alnum(u.rng, 3)}"),
     "train the 3b on {S}", "actually use {V}, the version i said still has the dedup bug", "which dataset version the 3b trains on"),
    (lambda u: {"s": u(lambda r: f"--exclude={fact_node(r)}"), "v": u(lambda r: f"--exclude={fact_node(r)}")},
     "add {S} to the eval sbatch", "wrong node lol, its {V}", "the node the eval sbatch should exclude"),
    (lambda u: {"s": u(lambda r: f"rsrch-lab/{r.choice(WORDS)}-{alnum(r, 3)}"), "v": u(lambda r: f"rsrch-lab/{r.choice(WORDS)}-{alnum(r, 3)}")},
     "log the dpo runs to {S}", "ugh wrong project, the dpo runs go to {V}", "the wandb project for the dpo runs"),
    (lambda u: {"s": u(lambda r: f"/shared/tok/{r.choice(WORDS)}-{r.randint(32, 256)}k"), "v": u(lambda r: f"/shared/tok/{r.choice(WORDS)}-{r.randint(32, 256)}k")},
     "the tokenizer for the new runs is at {S}", "wrong tokenizer path, its {V} (the one i gave is the old vocab)", "the tokenizer path for new runs"),
    (lambda u: {"s": u(lambda r: f"exp/{r.choice(WORDS)}-{alnum(r, 4)}"), "v": u(lambda r: f"exp/{r.choice(WORDS)}-{alnum(r, 4)}")},
     "base the rebuttal runs on branch {S}", "not that branch, {V}. the other one has my debugging prints", "the branch the rebuttal runs are based on"),
    (lambda u: {"s": u(lambda r: f"base-{r.choice(WORDS)}-{alnum(r, 5)}"), "v": u(lambda r: f"base-{r.choice(WORDS)}-{alnum(r, 5)}")},
     "compare everything against {S}", "wait the baseline is {V} not the one i said, that one had the bad tokenizer", "the baseline run to compare against"),
    (lambda u: {"s": u(lambda r: f"arXiv:25{r.randint(1, 12):02d}.{r.randint(10000, 29999)}"), "v": u(lambda r: f"arXiv:25{r.randint(1, 12):02d}.{r.randint(10000, 29999)}")},
     "R2 wants us to cite {S}, add it to related work", "wrong id for the R2 citation, its {V}", "the arXiv id R2 asked us to cite"),
    (lambda u: (lambda p: {"s": u(lambda r: f"/data/{p}/shards-{alnum(r, 4)}"), "v": u(lambda r: f"/data/{p}/shards-{alnum(r, 4)}")})(u.rng.choice(WORDS)),
     "the sft data lives in {S}", "nvm, sft data moved to {V} yesterday", "where the sft data lives"),
    (lambda u: {"s": u(lambda r: f"{r.randint(2, 6)}x{r.choice([4, 8])} nodes"), "v": u(lambda r: f"{r.randint(7, 12)}x{r.choice([4, 8])} nodes")},
     "the 13b restart gets {S}", "hmm i mixed it up, the 13b restart gets {V}, the other size was for the 7b", "the node allocation for the 13b restart"),
]

DECISIONS = [
    (lambda u: {"s": u(lambda r: f"dm-{r.choice(WORDS)}-{r.randint(10, 99)}"), "v": u(lambda r: f"dm-{r.choice(WORDS)}-{r.randint(10, 99)}")},
     "ok lets go with {X} for the main runs", "changing my mind, main runs use {V}. the other mix overweights code", "the data mix for the main runs"),
    (lambda u: {"s": u(lambda r: f"wsd decay_frac={r.randint(11, 29) / 100}"), "v": u(lambda r: f"cosine min_lr_ratio={r.randint(2, 9) / 100}")},
     "schedule: going with {X}", "scrap that, {V}. wsd decay was eating the gains", "the lr schedule"),
    (lambda u: {"s": u(lambda r: f"global_step{r.randint(40, 90)}{r.randint(1, 9)}50"), "v": u(lambda r: f"global_step{r.randint(40, 90)}{r.randint(1, 9)}50")},
     "paper tables use {X}", "use {V} for the tables instead (past the loss spike)", "the checkpoint the paper tables use"),
    (lambda u: {"s": u(lambda r: f"tiny-{r.randint(100, 450)}m-{r.choice(WORDS)}"), "v": u(lambda r: f"tiny-{r.randint(100, 450)}m-{r.choice(WORDS)}")},
     "ablations run on {X}", "switching ablations to {V}, the other one is too noisy", "the model the ablations run on"),
    (lambda u: {"s": u(lambda r: f"seq_len {r.choice([3, 5, 6, 7])}{r.randint(1, 9)}{r.randint(1, 9)}2"), "v": u(lambda r: f"seq_len {r.choice([9, 10, 11])}{r.randint(1, 9)}{r.randint(1, 9)}2")},
     "we're going with {X} for the long-ctx stage", "long-ctx stage: {V} after all, the shorter one doesnt reach the needle lengths", "the sequence length for the long-context stage"),
    (lambda u: {"s": u(lambda r: f"adamw b2={r.choice(['0.95', '0.98'])}{r.randint(1, 9)}"), "v": u(lambda r: f"adamw b2={r.choice(['0.97', '0.99'])}{r.randint(1, 9)}")},
     "optimizer for the 7b: {X}", "on second thought {V} for the 7b", "the optimizer setting for the 7b"),
    (lambda u: {"s": u(lambda r: f"{r.choice(['COLM', 'ICML'])} 20{r.randint(27, 28)} main track"), "v": u(lambda r: f"{r.choice(['NeurIPS', 'ICLR'])} 20{r.randint(27, 28)} main track")},
     "we submit to {X}", "talked to ola, we submit to {V} instead", "the venue we submit to"),
    (lambda u: {"s": u(lambda r: f"maj@{r.randint(4, 16)} on gsm8k-{alnum(r, 3)}"), "v": u(lambda r: f"pass@{r.randint(1, 3)} on humaneval-{alnum(r, 3)}")},
     "the headline number is {X}", "headline is {V} now, the other one saturates", "the headline metric"),
    (lambda u: {"s": u(lambda r: f"minhash jaccard {r.randint(60, 79) / 100}"), "v": u(lambda r: f"minhash jaccard {r.randint(80, 95) / 100}")},
     "dedup with {X}", "rerun dedup with {V}, too many near-dupes survived", "the dedup threshold"),
    (lambda u: {"s": u(lambda r: f"rope_theta={r.randint(2, 9)}{r.randint(1, 9)}0000"), "v": u(lambda r: f"rope_theta={r.randint(11, 49)}{r.randint(1, 9)}0000")},
     "for the extension use {X}", "bumping it: {V} for the extension", "the rope theta for the context extension"),
    (lambda u: {"s": u(lambda r: f"lm-eval=={r.choice(['0.4.2', '0.4.3'])}.post{r.randint(1, 9)}"), "v": u(lambda r: f"lm-eval=={r.choice(['0.4.5', '0.4.7'])}.post{r.randint(1, 9)}")},
     "pin {X} for all evals", "pin {V} instead, the older one has the mmlu prompt bug", "the pinned eval-harness version"),
    (lambda u: {"s": u(lambda r: f"{r.randint(2, 3)} seeds per cell, {alnum(r, 2)} grid"), "v": u(lambda r: f"{r.randint(4, 5)} seeds per cell, {alnum(r, 2)} grid")},
     "ablation table: {X}", "ok make it {V}, reviewers will ask", "how many seeds per ablation cell"),
    (lambda u: {"s": u(lambda r: f"vocab {r.randint(48, 64)}{r.randint(100, 999)}"), "v": u(lambda r: f"vocab {r.randint(120, 160)}{r.randint(100, 999)}")},
     "new tokenizer: {X}", "going bigger on the tokenizer: {V}", "the tokenizer vocabulary size"),
    (lambda u: {"s": u(lambda r: f"distill from {r.choice(['qwen', 'llama', 'olmo'])}-{r.randint(30, 72)}b-{alnum(r, 3)}"), "v": u(lambda r: f"distill from {r.choice(['gemma', 'mistral', 'yi'])}-{r.randint(20, 34)}b-{alnum(r, 3)}")},
     "for the small models we {X}", "license thing: we {V} instead", "the teacher model for distillation"),
]

PLANS = [
    (lambda u: {"v": u(lambda r: f"rerun {abl(r)}, then {abl(r)}, then write up")}, "tonight: {V}", "tonight's plan"),
    (lambda u: {"v": u(lambda r: f"kill {r.randint(5_000_000, 5_999_999)}, resume from step_{r.randint(10, 99)}{r.randint(1, 9)}00 with lr x0.5")},
     "plan for tmrw morning first thing: {V}", "the plan for tomorrow morning"),
    (lambda u: {"v": u(lambda r: f"{abl(r)} -> {abl(r)} -> {abl(r)}")}, "order of business (jutro): {V}. in that order", "the order of the ablations"),
    (lambda u: {"v": u(lambda r: f"first {abl(r)}, then rerun {abl(r)} with 3 seeds, then update table {r.randint(3, 9)}")},
     "before the rebuttal deadline: {V}", "the pre-rebuttal plan"),
    (lambda u: {"v": u(lambda r: f"let the {abl(r)} sweep finish, then launch {abl(r)} on the h100s")}, "weekend: {V}", "the weekend plan"),
    (lambda u: {"v": u(lambda r: f"after {abl(r)} finishes, start {abl(r)}, then compare against {abl(r)}")}, "{V} (in that order pls)", "what to run after the current ablation"),
    (lambda u: {"v": u(lambda r: f"ablate {abl(r)} first, {abl(r)} only if theres budget left")}, "so the plan: {V}", "which ablations to run first"),
    (lambda u: {"v": u(lambda r: f"monday freeze {abl(r)}, tuesday start the {r.randint(2, 9)}b scale-up")}, "{V}. dont start the scale-up early", "the plan for monday and tuesday"),
    (lambda u: {"v": u(lambda r: f"sweep {abl(r)} at 3 lrs first, pick best, then scale to {r.choice([3, 7, 13])}b-{alnum(r, 3)}")}, "for the scaling section: {V}", "the plan for the scaling section"),
    (lambda u: {"v": u(lambda r: f"finish the {abl(r)} eval, draft section {r.randint(3, 6)}.{r.randint(1, 5)}, send to {r.choice(PEOPLE)}")}, "this week: {V}", "this week's plan"),
    (lambda u: {"v": u(lambda r: f"requeue {abl(r)} w/ --time=48:00:00, then {abl(r)}")}, "{V}. nothing else on h100-long till then", "what to requeue next"),
    (lambda u: {"v": u(lambda r: f"port {abl(r)} to the new trainer, then rerun {abl(r)}")}, "once the trainer refactor lands: {V}", "what to do after the trainer refactor"),
    (lambda u: {"v": u(lambda r: f"1) {abl(r)} 2) {abl(r)} 3) camera-ready figs")}, "ok priorities until friday: {V}", "the priorities until friday"),
]

ERRORS = [
    (lambda u: {"v": u(lambda r: f"Tried to allocate {r.randint(10, 31)}.{r.randint(10, 99)} GiB. GPU {r.randint(0, 7)} has a total capacity of 79.15 GiB of which {r.randint(11, 899)}.{r.randint(1, 9)}0 MiB is free")},
     lambda v: f"torch.OutOfMemoryError: CUDA out of memory. {v}. Including non-PyTorch memory, this process has 78.61 GiB memory in use.", "the CUDA OOM of the long-context run"),
    (lambda u: {"v": u(lambda r: f"FloatingPointError: non-finite loss at step {r.randint(10_000, 99_999)} on rank {r.randint(8, 63)}")},
     lambda v: v + " (loss=nan, grad_norm=inf); aborting after 3 consecutive skipped steps", "the NaN-loss failure"),
    (lambda u: {"v": u(lambda r: f"ProcessGroupNCCL.cpp:{r.randint(1100, 1999)}, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.{r.randint(18, 21)}.{r.randint(1, 9)}")},
     lambda v: f"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/{v}\nncclUnhandledCudaError: Call to CUDA function failed.", "the NCCL failure"),
    (lambda u: {"v": u(lambda r: f"KeyError: 'model.layers.{r.randint(24, 79)}.self_attn.{r.choice(['q_norm', 'k_norm', 'rotary_emb'])}.{r.choice(['weight', 'inv_freq', 'scale'])}'")},
     lambda v: v, "the checkpoint-loading KeyError"),
    (lambda u: {"v": u(lambda r: f"slurmstepd: error: *** JOB {r.randint(5_000_000, 5_999_999)} ON {fact_node(r)} CANCELLED")},
     lambda v: v + " AT 2026-10-19T04:12:55 DUE TO TIME LIMIT ***", "the slurm time-limit cancellation"),
    (lambda u: {"v": u(lambda r: f"No such file or directory: '/scratch/rsrch/cache/{alnum(r, 10)}.arrow'")},
     lambda v: f"FileNotFoundError: [Errno 2] {v}", "the missing arrow cache file"),
    (lambda u: {"v": u(lambda r: f"size mismatch for lm_head.weight: copying a param with shape torch.Size([{r.randint(100, 160)}{r.randint(100, 999)}, {r.choice([2048, 3072, 4096])}])")},
     lambda v: f"RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n\t{v} from checkpoint, the shape in current model is torch.Size([128256, 4096]).", "the lm_head shape mismatch"),
    (lambda u: {"v": u(lambda r: f"pyarrow.lib.ArrowInvalid: JSON parse error: Missing a name for object member. in row {r.randint(100_000, 999_999)}")},
     lambda v: v, "the JSON parse error in the data shards"),
    (lambda u: {"v": u(lambda r: f"ImportError: cannot import name '{r.choice(['_flash_attn_varlen', 'apply_rotary_emb_qkv_', 'ring_flash_attn_kv'])}{alnum(r, 2)}' from 'flash_attn.flash_attn_interface'")},
     lambda v: v, "the flash-attn ImportError"),
    (lambda u: {"v": u(lambda r: f"Detected {r.randint(2, 9)} oom_kill events in StepId={r.randint(5_000_000, 5_999_999)}.batch")},
     lambda v: f"slurmstepd: error: {v}. Some of the step tasks have been OOM Killed.", "the host OOM kill"),
    (lambda u: {"v": u(lambda r: f"AssertionError: tokens per batch {r.randint(1_000_000, 4_000_000)} not divisible by micro_batch*world_size={r.choice([96, 192, 384])}")},
     lambda v: v, "the batch divisibility assertion"),
    (lambda u: {"v": u(lambda r: f"triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: {r.randint(233_000, 299_999)}")},
     lambda v: v + ", Hardware limit: 232448. Reducing block size or `num_stages` may help.", "the Triton shared-memory error"),
    (lambda u: {"v": u(lambda r: f"OSError: [Errno 122] Disk quota exceeded: '/home/rsrch/.cache/{r.choice(['huggingface', 'wandb', 'torch'])}/{alnum(r, 8)}'")},
     lambda v: v, "the disk-quota error"),
]

FILES = [
    lambda r: f"configs/sweeps/{r.choice(WORDS)}_{alnum(r, 4)}.yaml",
    lambda r: f"scripts/eval_{r.choice(WORDS)}_{alnum(r, 3)}.py",
    lambda r: f"slurm/{r.choice(WORDS)}-{alnum(r, 4)}.sbatch",
    lambda r: f"notes/2026-10-{r.randint(1, 28):02d}-{r.choice(WORDS)}.md",
    lambda r: f"paper/tables/{r.choice(WORDS)}_{alnum(r, 3)}.tex",
    lambda r: f"analysis/{r.choice(WORDS)}_{alnum(r, 4)}.py",
    lambda r: f"data/manifests/{r.choice(WORDS)}-v{r.randint(2, 9)}{alnum(r, 2)}.jsonl",
    lambda r: f"configs/model/{r.choice(WORDS)}-{r.randint(100, 900)}m-{alnum(r, 2)}.yaml",
    lambda r: f"tools/fix_{r.choice(WORDS)}_{alnum(r, 3)}.py",
    lambda r: f"rebuttal/{r.choice(WORDS)}_r{r.randint(1, 4)}{alnum(r, 2)}.md",
    lambda r: f"src/model/{r.choice(WORDS)}_{alnum(r, 3)}.py",
    lambda r: f"scripts/plot_{r.choice(WORDS)}_{alnum(r, 3)}.py",
    lambda r: f"src/data/{r.choice(WORDS)}_filter_{alnum(r, 3)}.py",
]

IDENTIFIERS = [
    ("user", lambda r: f"https://wandb.ai/rsrch-lab/{r.choice(['pretrain', 'ablations', 'posttrain'])}/runs/{alnum(r, 8)}",
     "the baseline run is {V}, compare against that from now on", "the wandb URL of the baseline run"),
    ("sbatch", lambda r: str(r.randint(6_000_000, 6_999_999)), None, "the slurm job id of the main 7b run"),
    ("user", lambda r: hexs(r, 12), "the paper numbers are all from commit {V}, keep that checkout around", "the commit the paper numbers come from"),
    ("user", lambda r: f"https://openreview.net/forum?id={alnum(r, 10)}", "openreview thread for the submission: {V}", "the OpenReview forum URL"),
    ("sweep", lambda r: alnum(r, 8), None, "the wandb sweep id of the lr sweep"),
    ("user", lambda r: f"ghcr.io/rsrch-lab/train@sha256:{hexs(r, 64)}", "pin the image to {V} for everything that goes in the paper", "the pinned docker image digest"),
    ("git", lambda r: hexs(r, 40), None, "the full commit hash of the release tag"),
    ("user", lambda r: f"s3://rsrch-snap/{r.choice(WORDS)}/snapshot-{alnum(r, 6)}", "the dataset snapshot we froze is {V}", "the frozen dataset snapshot URL"),
    ("user", lambda r: f"revision={hexs(r, 10)}", "load the hf dataset with {V}, main moved under us", "the HF dataset revision to load"),
    ("user", lambda r: f"https://www.overleaf.com/project/{hexs(r, 24)}", "overleaf is {V} (edit link, dont share)", "the Overleaf project URL"),
    ("gsutil", lambda r: f"gs://rsrch-final-{alnum(r, 5)}/7b/global_step{r.randint(50, 99)}000", None, "the final 7b checkpoint URL"),
    ("user", lambda r: f"https://wandb.ai/rsrch-lab/reports/{r.choice(WORDS)}--Vmlldzo{alnum(r, 7)}", "the report for the group meeting is {V}", "the wandb report URL"),
    ("user", lambda r: f"ticket HPC-{r.randint(10000, 99999)}", "i opened {V} with the cluster admins about the flaky nodes", "the HPC ticket about flaky nodes"),
]

FINDINGS = [
    ("div", lambda r: str(r.randint(10_000, 99_999)), "the step where the run's loss diverged"),
    ("eval", lambda r: f"0.{r.randint(1000, 9999)}", "the gsm8k score of the candidate checkpoint"),
    ("oomnode", fact_node, "the node that OOMed"),
    ("config", lambda r: f"rope_theta: {r.randint(100, 999)}{r.randint(1, 9)}00", "the rope_theta in the extension config"),
    ("tput", lambda r: f"{r.randint(2000, 4999)}.{r.randint(1, 9)} tok/s/gpu", "the measured throughput of the new kernel"),
    ("dedup", lambda r: f"{r.randint(1, 9)},{r.randint(100, 999)},{r.randint(100, 999)} docs", "how many documents dedup removed"),
    ("sweep", lambda r: f"{r.randint(2, 3)}.{r.randint(1000, 9999)}", "the best val loss in the lr sweep"),
    ("mem", lambda r: f"{r.randint(50, 79)}.{r.randint(10, 99)} GiB peak", "the peak memory of the 7b config"),
    ("bisect", lambda r: hexs(r, 10), "the first bad commit git bisect found"),
    ("contam", lambda r: f"{r.randint(11, 97)}/{r.randint(1100, 1400)} test items", "how many test items overlap the train data"),
    ("tokens", lambda r: f"{r.randint(100, 999)},{r.randint(100, 999)},{r.randint(100, 999)},{r.randint(100, 999)} tokens", "the token count of the mix"),
    ("gpuh", lambda r: f"{r.randint(10, 40)},{r.randint(100, 999)}.{r.randint(1, 9)} GPU-hours", "the GPU-hours spent this month"),
    ("gnorm", lambda r: f"grad_norm {r.randint(100, 999)}.{r.randint(10, 99)}", "the largest grad-norm spike"),
]


def per_kind(messages: int) -> int:
    """Six of each kind at 400 messages (~150k tokens), twelve at 3000 (~1.2M), fewer when tiny."""
    if messages < 400:
        return max(1, min(6, messages // 60))
    return min(12, 6 + round(6 * (messages - 400) / 2600))


class Planter:
    """Draws every planted value up front and writes each fact's episode when its turn comes."""

    def __init__(self, rng: random.Random, n: int) -> None:
        self.rng, self.n = rng, n
        self.u = Uniq(rng)
        self.items: list[dict[str, Any]] = []
        for kind, table in (("instruction", INSTRUCTIONS), ("correction", CORRECTIONS), ("decision", DECISIONS),
                            ("error", ERRORS), ("file", FILES), ("identifier", IDENTIFIERS), ("finding", FINDINGS),
                            ("plan", PLANS)):
            for k, template in enumerate(rng.sample(table, n)):
                item: dict[str, Any] = {"kind": kind, "t": template}
                if kind in ("instruction", "plan", "error"):
                    item.update(template[0](self.u))
                elif kind in ("correction", "decision"):
                    item.update(template[0](self.u))
                    if kind == "decision" and k % 3 == 2:
                        item.pop("s")  # not every decision gets revised
                elif kind == "file":
                    item["v"] = self.u(template)
                elif kind == "identifier":
                    item["v"] = self.u(template[1])
                elif kind == "finding":
                    item["v"] = self.u(template[1])
                self.items.append(item)

    def values(self) -> list[str]:
        return [x for item in self.items for x in (item.get("v"), item.get("s")) if x]

    def schedule(self, total: int) -> list[tuple[int, int, str]]:
        """(target message index, item number, 'stale' | 'fact'), sorted; a stale part before its fact."""
        events = []
        by_kind: dict[str, list[int]] = {}
        for i, item in enumerate(self.items):
            by_kind.setdefault(item["kind"], []).append(i)
        for ids in by_kind.values():
            offset = self.rng.randrange(3)
            for j, i in enumerate(ids):
                lo, hi = BANDS[(j + offset) % 3]
                frac = self.rng.uniform(lo, hi)
                if "s" in self.items[i]:
                    lo = max(lo, 0.09)
                    frac = self.rng.uniform(lo, hi)
                    events.append((int(total * frac * self.rng.uniform(0.2, 0.6)), 0, i))
                events.append((int(total * frac), 1, i))
        return [(at, i, "stale" if order == 0 else "fact") for at, order, i in sorted(events)]


def user_text(rng: random.Random, template: str, routine: bool = True, **values: str) -> tuple[str, str]:
    """A user message around ``template``: maybe an ordinary ask first and the rule in a second paragraph."""
    marked = template
    for key, value in values.items():
        marked = marked.replace("{" + key + "}", MARK_OPEN + value + MARK_CLOSE)
    body = typo(rng, marked)
    if rng.random() < 0.2:
        body += " " + rng.choice(ASIDES)
    style = rng.random() if routine else 1.0
    if style < 0.4:
        body = typo(rng, noise_asks(rng)) + "\n\n" + rng.choice(["also ", "btw ", "oh and ", "fyi ", ""]) + body
    elif style < 0.6:
        body = body + "\n" + typo(rng, noise_asks(rng)) + rng.choice(CHAT_SUFFIX)
    text, value = render(body)
    assert value is not None
    return text, value


def emit(b: Builder, item: dict[str, Any], part: str) -> tuple[list[Message], int, str]:
    """The episode carrying ``item`` (or its stale value); returns it, the carrier's offset and the value."""
    rng, kind, t = b.rng, item["kind"], item["t"]
    if kind == "instruction":
        text, value = user_text(rng, t[1], V=item["v"])
        return [b.user(text), *routine_tail(b)], 0, value
    if kind == "plan":
        text, value = user_text(rng, t[1], V=item["v"])
        return [b.user(text), b.say("Understood; I'll work through it in that order and report after each step.")], 0, value
    if kind in ("correction", "decision"):
        if part == "stale":
            text, value = user_text(rng, t[1], S=item["s"], X=item["s"])
            tail = [b.say(f"Noted: {value}. I'll apply it to the next launches.")] if kind == "decision" else routine_tail(b)
            return [b.user(text), *tail], 0, value
        template = t[2] if "s" in item else t[1]
        text, value = user_text(rng, template, V=item["v"], X=item["v"])
        return [b.user(text), b.say(f"Got it, using {value} from now on; I'll update the configs and relaunch what depends on it.")], 0, value
    if kind == "error":
        line = t[1](item["v"])
        jid, n = job_id(rng), node(rng)
        if rng.random() < 0.3:
            paste = traceback(rng, line)
            text = typo(rng, rng.choice(["got this overnight, no idea why:", "this again?? pasting:", "look at this"])) + "\n```\n" + paste + "\n```\n" + typo(rng, "can u dig into it, its blocking the rerun")
            return [{"role": "user", "content": text, "_paste": paste},
                    b.say("Looking into it; this blocks the rerun until it is understood. I'll report what I find.")], 0, item["v"]
        out = f"srun: error: {n}: task {rng.randint(0, 7)}: Exited with exit code 1\n" + traceback(rng, line)
        return [b.user(ask(rng, f"did {jid} make it past the restart?")),
                *b.tool("shell", {"cmd": f"tail -n 60 logs/slurm-{jid}.out"}, out),
                b.say(f"No. {jid} failed on {n}; this is not the usual transient failure, so I have not resubmitted. Still open.")], 2, item["v"]
    if kind == "file":
        path = item["v"]
        if rng.random() < 0.3 and path.endswith(".py"):
            cmd = f"sed -i 's/clip_grad=1.0/clip_grad=cfg.clip/' {path} && git diff --stat"
            return [b.user(ask(rng, f"make {path.rsplit('/', 1)[1]} read the clip value from the config")),
                    *b.tool("shell", {"cmd": cmd}, f" {path} | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)"),
                    b.say("Edited; the clip value now comes from the config.")], 1, path
        content = file_content(rng, path)
        return [b.user(ask(rng, rng.choice(["write that up as a file", "save this so we dont lose it", "make a proper file for it"]))),
                *b.tool("write_file", {"path": path, "content": content}, f"wrote {len(content)} bytes"),
                b.say("Written.")], 1, path
    if kind == "identifier":
        how, _make, template, _q = t
        value = item["v"]
        if how == "user":
            text, value = user_text(rng, template, V=value)
            return [b.user(text), *routine_tail(b)], 0, value
        if how == "sbatch":
            return [b.user(ask(rng, "launch the main 7b run", "the big one, the config we agreed on")),
                    *b.tool("slurm", {"cmd": "sbatch slurm/main_7b.sbatch"}, f"Submitted batch job {value}"),
                    b.say("Main 7b run submitted; that's the job to watch.")], 2, value
        if how == "sweep":
            out = f"wandb: Creating sweep from: configs/sweeps/lr.yaml\nwandb: Creating sweep with ID: {value}\nwandb: View sweep at: https://wandb.ai/rsrch-lab/ablations/sweeps/{value}\nwandb: Run sweep agent with: wandb agent rsrch-lab/ablations/{value}"
            return [b.user(ask(rng, "create the lr sweep", "dont start agents yet")),
                    *b.tool("shell", {"cmd": "wandb sweep configs/sweeps/lr.yaml"}, out),
                    b.say("Sweep created, no agents started.")], 2, value
        if how == "git":
            return [b.user(ask(rng, "full hash of the release tag?", "for the paper appendix")),
                    *b.tool("shell", {"cmd": "git rev-parse v1.0-paper^{commit}"}, value),
                    b.say("That's the full hash of the release tag.")], 2, value
        out = "\n".join(f"gs://rsrch-final-x/7b/global_step{k}000/" for k in range(10, 50, 10)) + f"\n{value}/"
        return [b.user(ask(rng, "where did the final 7b ckpt land")),
                *b.tool("shell", {"cmd": "gsutil ls gs://rsrch-final-*/7b/ | tail -5"}, out),
                b.say("The last listed one is the final 7b checkpoint.")], 2, value
    if kind == "finding":
        how, value = t[0], item["v"]
        tool, args, out, ask_text = finding_output(b, how, value)
        return [b.user(ask(rng, ask_text)), *b.tool(tool, args, out),
                b.say("That's the number from the output above.")], 2, value
    raise ValueError(kind)


def file_content(rng: random.Random, path: str) -> str:
    """What the agent writes, by file type."""
    if path.endswith(".yaml"):
        if "sweeps" in path:
            lrs = ", ".join(lr_str(rng) for _ in range(rng.randint(3, 6)))
            return (f"program: train.py\nmethod: grid\nmetric:\n  name: val/loss\n  goal: minimize\nparameters:\n"
                    f"  optim.lr:\n    values: [{lrs}]\n  seed:\n    values: [0, 1, 2]\n  trainer.max_steps:\n    value: {rng.randint(5, 30) * 1000}\n"
                    "command:\n  - ${env}\n  - torchrun\n  - --nproc_per_node=8\n  - ${program}\n  - ${args_no_hyphens}\n")
        return yaml_config(rng, path.rsplit("/", 1)[1][:-5])
    if path.endswith(".sbatch"):
        return (f"#!/bin/bash\n#SBATCH --job-name={path.rsplit('/', 1)[1][:-7]}\n#SBATCH --partition={rng.choice(PARTS)}\n"
                f"#SBATCH --nodes={rng.choice([1, 2, 4])}\n#SBATCH --gpus-per-node=8\n#SBATCH --time={rng.randint(4, 47)}:00:00\n"
                "#SBATCH --output=logs/slurm-%j.out\n\nsource ~/.bashrc\nconda activate rs-main\nexport NCCL_IB_TIMEOUT=22\n"
                "srun torchrun --nnodes=$SLURM_NNODES --nproc_per_node=8 --rdzv_backend=c10d \\\n"
                "  --rdzv_endpoint=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n1):29500 train.py --config $1\n")
    if path.endswith(".py"):
        return code_file(rng)
    if path.endswith(".tex"):
        rows = "\n".join(f"{run_name(rng)} & " + " & ".join(f"{rng.uniform(20, 80):.1f}" for _ in range(5)) + " \\\\" for _ in range(rng.randint(5, 10)))
        return "\\begin{tabular}{lccccc}\n\\toprule\nModel & ARC-C & HS & MMLU & GSM8K & Avg \\\\\n\\midrule\n" + rows + "\n\\bottomrule\n\\end{tabular}\n"
    if path.endswith(".jsonl"):
        return "\n".join(json.dumps({"path": f"/data/pretrain/{rng.choice(WORDS)}/shard_{k:05d}.parquet", "tokens": rng.randint(10**8, 10**9),
                                     "sha1": hexs(rng, 40)}) for k in range(rng.randint(8, 20)))
    return ("## " + rng.choice(["notes", "rebuttal draft", "running log"]) + "\n\n" +
            "\n".join(f"- {rng.choice(REMARKS)}" for _ in range(rng.randint(4, 9))) + "\n")


def emit_clean(b: Builder, item: dict[str, Any], part: str) -> tuple[list[Message], int, str]:
    """:func:`emit`, drawn again until no message of the episode carries another fact's value."""
    own = {item.get("v"), item.get("s")}
    for _ in range(50):
        episode, offset, value = emit(b, item, part)
        episode = thicken(b, episode)
        if b.found(episode) <= own:
            return episode, offset, value
    raise RuntimeError("a fact episode keeps hitting another planted value")


def finding_output(b: Builder, how: str, value: str) -> tuple[str, dict[str, Any], str, str]:
    rng = b.rng
    run = run_name(rng)
    if how == "div":
        log = train_log(rng, run, 30, b.day, start=int(value) - 2400, spike=int(value))
        return ("run_python", {"code": f"h = wandb_history('{run}')\nprint(first_divergence(h, factor=1.5))"},
                log + f"\n\nfirst_divergence(factor=1.5): loss left the 1.5x EMA band at step {value}", f"where did {run} blow up exactly")
    if how == "eval":
        return ("run_python", {"code": "print(quick_suite('/ckpt/candidate/latest', tasks=['gsm8k', 'mmlu', 'arc_challenge', 'hellaswag']))"},
                eval_table(rng, "/ckpt/candidate/latest", ("gsm8k", value)), "eval the candidate ckpt, gsm8k is what i care about")
    if how == "oomnode":
        jid = job_id(rng)
        return ("slurm", {"cmd": f"sacct -j {jid} --format=JobID,JobName,Partition,Elapsed,State,ExitCode,MaxRSS,NodeList"},
                sacct(rng, jid, "OUT_OF_MEMORY", value), f"which node did {jid} oom on")
    if how == "config":
        return ("read_file", {"path": "configs/runs/longctx_ext.yaml"},
                yaml_config(rng, "longctx_ext", ("rope_theta", value.split(": ")[1])), "what rope theta does the extension config actually use")
    if how == "tput":
        rows = "\n".join(f"iter {k:>3}: {rng.randint(2000, 4999)}.{rng.randint(0, 9)} tok/s/gpu" for k in range(10, 60, 10))
        return ("run_python", {"code": "bench_kernel('fused_rmsnorm_v2', iters=50)"}, rows + f"\nmean over 50 iters: {value}", "benchmark the new fused kernel")
    if how == "dedup":
        return ("shell", {"cmd": "python tools/dedup.py --stats-only /data/pretrain/current"},
                f"shards scanned: {rng.randint(200, 900)}\nnear-dup clusters: {rng.randint(10000, 99999)}\nremoved: {value}\nkept: {rng.randint(10, 99)},{rng.randint(100, 999)},{rng.randint(100, 999)} docs",
                "how much did dedup remove")
    if how == "sweep":
        table = wandb_table(rng, rng.randint(5, 9))
        return ("wandb_query", {"sweep": "rsrch-lab/ablations/sweeps/current", "summary": ["val/loss"]},
                table + f"\n\nbest val/loss in sweep: {value}", "is the lr sweep done, whats the best")
    if how == "mem":
        return ("run_python", {"code": "profile_memory('configs/model/7b.yaml', micro_batch=4)"},
                f"params: 6.74B\nactivations (ckpt every layer): {rng.uniform(10, 20):.2f} GiB\noptimizer states: {rng.uniform(20, 30):.2f} GiB\nmax_memory_allocated: {value}",
                "will the 7b config fit at mbs 4")
    if how == "bisect":
        return ("shell", {"cmd": "git bisect run python tools/check_loss_regression.py"},
                "\n".join(f"Bisecting: {k} revisions left to test after this (roughly {max(1, k // 2)} steps)" for k in (40, 20, 10, 5, 2)) + f"\n{value} is the first bad commit",
                "bisect the loss regression")
    if how == "contam":
        return ("run_python", {"code": "print(ngram_overlap('gsm8k/test', '/data/pretrain/current', n=13))"},
                f"13-gram overlap: {value} found in train shards", "contamination check on gsm8k test")
    if how == "tokens":
        return ("shell", {"cmd": "python tools/count_tokens.py /data/pretrain/current --tokenizer /shared/tok/current"},
                "\n".join(f"{w}: {rng.randint(1, 99)},{rng.randint(100, 999)},{rng.randint(100, 999)},{rng.randint(100, 999)} tokens" for w in rng.sample(WORDS, 5)) + f"\nTOTAL {value}",
                "how many tokens in the current mix")
    if how == "gpuh":
        return ("slurm", {"cmd": "sreport cluster AccountUtilizationByUser user=rsrch start=2026-10-01 -t hours"},
                f"Cluster/Account/User Utilization 2026-10-01 - 2026-10-31\nUsage reported in TRES Hours\n  cluster    rsrch-lab     rsrch   gres/gpu   {value}", "how many gpu hours this month")
    log = train_log(rng, run, 15, b.day)
    return ("run_python", {"code": f"h = wandb_history('{run}')\nprint(h.grad_norm.max(), h.grad_norm.idxmax())"},
            log + f"\n\nmax: {value}", f"biggest grad norm spike on {run}?")


# --- the session -----------------------------------------------------------------------------------


def make_session(seed: int = 1, messages: int = 400) -> Session:
    """A research-agent session of about ``messages`` messages (~390 tokens each) with planted facts."""
    rng = random.Random(f"gen_research:{seed}:{messages}")
    planter = Planter(rng, per_kind(messages))
    values = planter.values()
    b = Builder(rng, tuple(values))
    events = planter.schedule(messages)
    facts: list[Fact] = []
    stale_at: dict[int, int] = {}
    last = messages - 1
    while events or len(b.messages) < last - 1:
        if events and events[0][0] <= len(b.messages):
            _target, i, part = events.pop(0)
            item = planter.items[i]
            episode, offset, value = emit_clean(b, item, part)
            at = len(b.messages) + offset
            if part == "stale":
                stale_at[i] = at
                item["s_rendered"] = value
            else:
                facts.append(Fact(kind=item["kind"], value=value, index=at, query=_query(item),
                                  stale=item.get("s_rendered") if "s" in item else None,
                                  stale_index=stale_at.get(i)))
        else:
            episode = noise_episode(b)
            if not events and len(b.messages) + len(episode) > last and len(b.messages) >= last - 4:
                break
        for m in episode:
            paste = m.pop("_paste", None)
            if paste is not None:
                b.pasted.append((len(b.messages), paste))
            b.messages.append(m)
        b.day += rng.random() < 0.04
    b.messages.append(b.user(ask(rng, rng.choice(["ok where are we", "status on everything pls", "what's running right now",
                                                  "recap before i go to bed"]), noise_asks(rng))))
    facts.sort(key=lambda f: f.index)
    return Session(messages=b.messages, facts=facts, seed=seed, pasted=b.pasted)


def _query(item: dict[str, Any]) -> str:
    kind, t = item["kind"], item["t"]
    if kind in ("instruction", "plan"):
        return t[2]
    if kind in ("correction", "decision"):
        return t[3]
    if kind == "error":
        return t[2]
    if kind == "file":
        return "a file the agent wrote or edited"
    if kind == "identifier":
        return t[3]
    return t[2]


if __name__ == "__main__":
    import time

    for count in (400, 3000):
        start = time.perf_counter()
        s = make_session(1, count)
        print(count, len(s.messages), s.chars() // 4, len(s.facts), f"{time.perf_counter() - start:.2f}s")
