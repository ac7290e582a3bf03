"""An ML engineer's long sessions with a coding and research agent, with planted facts, for the fidelity bench.

    from gen_mlops import make_session
    session = make_session(seed=1, messages=400)     # about 150k tokens (600k characters)
    session = make_session(seed=1, messages=3000)    # about 1.2M tokens

Who talks: Mei, an ML engineer training and evaluating language models, who writes English with Mandarin
phrases and whole Mandarin lines, often terse and with typos; and the agent, which calls ``read_file``,
``write_file``, ``edit_file``, ``run_shell``, ``search_code``, ``fetch_url`` and ``python`` (a notebook
cell), each call answered at once by its ``tool`` result. Most of a session is routine: training logs
tailed, ``squeue`` and ``sacct`` tables, ``nvidia-smi``, Hydra/YAML configs and Lightning code read with
line numbers, pytest runs, pip resolver output, lm-eval tables, ``torch.profiler`` tables, wandb scalars
from a notebook, data pipeline logs, one-off requests ("plot the loss for run X") and chit-chat.

What she pastes is somebody else's (``session.pasted``: the message index and the pasted text exactly as
it occurs there): a reviewer's comments on her draft, a colleague's Slack message with the colleague's own
imperatives ("please always use bf16 on the A100s"), a cluster admin's announcement, a wandb report, an
error log from somebody else's run, a colleague's config, a paper abstract. None of it is her instruction.
Once or twice she pastes the lab's experiment-conventions document and adopts it ("these are our lab's
rules, follow them"): its rules are hers, one of them is a planted instruction, and it is not listed as
pasted.

Facts (``session.facts``), ``per_kind(messages)`` of each kind (six at 400 messages, twelve at 3000,
linearly between, one at 60), spread over 4%-85% of the session:

- instruction: a standing rule of hers, said casually, indirectly, reason first, trailing an unrelated
  request, in Mandarin, as a fact about herself, or in the middle of the adopted conventions document;
- correction: a value she gave earlier (``stale``, said by her at ``stale_index``) corrected loosely and
  often hundreds of messages later, as a near miss of it ("val_2k not val_5k", "不对，学习率是2.8e-4");
- decision: a choice she makes; some revise an earlier choice of hers (then that one is ``stale``);
- error: a whole line of a tool's output (a traceback's last line, a CUDA OOM, an NCCL error, a failing
  pytest line); some are ``resolved`` by a later run of the same command whose output lacks it;
- file: the path the agent writes or edits in that message's single tool call;
- identifier: a wandb run id, Slurm job id, dataset revision, commit sha, checkpoint path or S3 URI, in
  her words or printed by a tool;
- finding: part of one tool-output line the work hangs on (a config value read from a file, the slowest
  op of a profiler table, the layer a NaN guard blames, an eval score, a dedup count);
- plan: a distinctive step of a plan she lays out in prose or as a numbered list.

Planted values come from a vocabulary the filler never draws from: a value first occurs in its own message
and afterwards only in the few messages answering it (a stale value likewise), so finding one in a
compacted prompt means it was kept. Same seed and size, same bytes.
"""

from __future__ import annotations

import json
import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("read_file", "write_file", "edit_file", "run_shell", "search_code", "fetch_url", "python")
CHARS_PER_MESSAGE = 1560  # 400 messages are about 620k characters, 3000 about 4.7M
AFTER_VALUE = 6  # messages after a fact's own that may repeat its value (the agent answering about it)
STALE_AFTER = 10  # messages after a stale value's own that may repeat it
SPAN = (0.045, 0.84)  # where facts are planted, as shares of the session


def per_kind(messages: int) -> int:
    """Facts of each kind: one at 60 messages, six at 400, twelve at 3000, linearly between and beyond."""
    if messages <= 400:
        return max(1, round(1 + (messages - 60) * 5 / 340))
    return round(6 + (messages - 400) * 6 / 2600)


# --- small random pieces ------------------------------------------------------------------------------------

def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(n))


def _fill(template: str, **slots: str) -> str:
    """``template`` with each ``{name}`` replaced (no str.format: pasted YAML and code carry braces)."""
    for name, text in slots.items():
        template = template.replace("{" + name + "}", text)
    return template


def _typo(rng: random.Random, text: str, rate: float) -> str:
    """Her hurried typing: a few words with two letters swapped, one dropped or one doubled."""
    words = text.split(" ")
    for i, word in enumerate(words):
        if len(word) >= 4 and word.isalpha() and word.isascii() and rng.random() < rate:
            j = rng.randrange(len(word) - 1)
            roll = rng.random()
            if roll < 0.5:
                word = word[:j] + word[j + 1] + word[j] + word[j + 2:]
            elif roll < 0.8:
                word = word[:j] + word[j + 1:]
            else:
                word = word[:j + 1] + word[j:]
            words[i] = word
    return " ".join(words)


def _ts(rng: random.Random) -> str:
    return (f"2024-{rng.randint(3, 9):02d}-{rng.randint(1, 28):02d} "
            f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}")


# --- the filler's own vocabulary (planted values never come from here) -------------------------------------

F_RUNS = ("abl-rope-base", "sft-chat-mix", "pt-1b-baseline", "dpo-beta-sweep", "ctx-ext-16k", "moe-8x-top2",
          "distill-small", "lr-sweep", "tok-probe", "pt-3b-warm", "reward-model", "sft-code")
F_PY = ("src/lm/train.py", "src/lm/module.py", "src/lm/model/transformer.py", "src/lm/model/attention.py",
        "src/lm/model/mlp.py", "src/lm/data/dataset.py", "src/lm/data/collate.py", "src/lm/data/tokenize.py",
        "src/lm/optim.py", "src/lm/callbacks.py", "src/lm/eval/harness.py", "src/lm/utils/dist.py")
F_YAML = ("configs/train/base.yaml", "configs/model/llama_1b.yaml", "configs/data/mix_default.yaml",
          "configs/trainer/fsdp.yaml", "configs/eval/suite.yaml", "configs/model/llama_3b.yaml")
F_TESTS = ("tests/test_collate.py", "tests/test_attention.py", "tests/test_tokenize.py", "tests/test_optim.py",
           "tests/test_dataset.py", "tests/test_harness.py", "tests/test_dist.py")
F_DATASETS = ("HuggingFaceFW/fineweb-edu", "allenai/c4", "bigcode/the-stack-smol", "open-web-math/open-web-math",
              "wikitext", "cais/mmlu", "openai/gsm8k", "Rowan/hellaswag")
F_TASKS = ("arc_challenge", "arc_easy", "hellaswag", "piqa", "winogrande", "boolq", "openbookqa", "lambada_openai",
           "sciq", "mmlu", "gsm8k", "triviaqa")
F_PEOPLE = ("Jonas", "Priya", "Arjun", "Sofia", "Kenji", "Lena", "Tomás", "Hannah", "Wei", "Oskar")
F_USERS = ("mei", "jweber", "pkumar", "arjunr", "sgarcia", "kenji", "lhoff")
F_PARTS = ("gpu-a100", "gpu-h100", "gpu-debug")
F_URLS = ("https://lightning.ai/docs/pytorch/stable/advanced/model_parallel/fsdp.html",
          "https://pytorch.org/docs/stable/notes/cuda.html", "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html",
          "https://huggingface.co/docs/datasets/stream", "https://hydra.cc/docs/patterns/configuring_experiments/",
          "https://github.com/Dao-AILab/flash-attention/issues", "https://arxiv.org/abs/2307.08691",
          "https://pytorch.org/docs/stable/profiler.html", "https://docs.wandb.ai/guides/track/public-api-guide")


def _run(rng: random.Random) -> str:
    return f"{rng.choice(F_RUNS)}-{rng.randint(1, 40):02d}"


def _jid(rng: random.Random) -> str:
    return str(rng.randint(2_100_000, 3_900_000))  # the filler's jobs have seven digits


def _wid(rng: random.Random) -> str:
    return _alnum(rng, 8)


def _node(rng: random.Random) -> str:
    return f"hgx{rng.randint(1, 48):02d}"


def _fckpt(rng: random.Random) -> str:
    return f"step_{rng.randint(1, 199) * 1000:07d}.ckpt"  # never step_<non-zero>


# --- tool output: code, configs, logs, tables ---------------------------------------------------------------

CODE_BLOCKS = (
    """import math
import os
from dataclasses import dataclass

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from omegaconf import DictConfig""",
    """class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = x.float().pow(2).mean(-1, keepdim=True).add(self.eps).rsqrt()
        return (x.float() * norm).type_as(x) * self.weight""",
    """class Attention(nn.Module):
    def __init__(self, cfg: DictConfig) -> None:
        super().__init__()
        self.n_heads = cfg.n_heads
        self.head_dim = cfg.d_model // cfg.n_heads
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=False)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model, bias=False)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.head_dim).unbind(2)
        q, k = apply_rotary(q, k, cos, sin)
        out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        return self.proj(out.transpose(1, 2).reshape(b, t, -1))""",
    """    def training_step(self, batch: dict[str, torch.Tensor], batch_idx: int) -> torch.Tensor:
        logits = self.model(batch["input_ids"])
        loss = F.cross_entropy(logits.flatten(0, 1).float(), batch["labels"].flatten(), ignore_index=-100)
        self.log("train/loss", loss, prog_bar=True, sync_dist=False)
        self.log("train/tokens", float(batch["input_ids"].numel()), reduce_fx="sum")
        return loss""",
    """    def configure_optimizers(self):
        decay, no_decay = [], []
        for name, p in self.model.named_parameters():
            (no_decay if p.ndim < 2 or "norm" in name else decay).append(p)
        groups = [{"params": decay, "weight_decay": self.cfg.optim.weight_decay},
                  {"params": no_decay, "weight_decay": 0.0}]
        opt = torch.optim.AdamW(groups, lr=self.cfg.optim.lr, betas=tuple(self.cfg.optim.betas), fused=True)
        sched = build_scheduler(opt, self.cfg.scheduler, self.trainer.max_steps)
        return {"optimizer": opt, "lr_scheduler": {"scheduler": sched, "interval": "step"}}""",
    """def collate(batch: list[dict[str, list[int]]], pad_id: int, multiple_of: int = 8) -> dict[str, torch.Tensor]:
    longest = max(len(x["input_ids"]) for x in batch)
    longest = (longest + multiple_of - 1) // multiple_of * multiple_of
    ids = torch.full((len(batch), longest), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), longest), -100, dtype=torch.long)
    for i, x in enumerate(batch):
        n = len(x["input_ids"])
        ids[i, :n] = torch.tensor(x["input_ids"])
        labels[i, : n - 1] = ids[i, 1:n]
    return {"input_ids": ids, "labels": labels}""",
    """@hydra.main(config_path="../../configs", config_name="train", version_base="1.3")
def main(cfg: DictConfig) -> None:
    L.seed_everything(cfg.seed, workers=True)
    module = LMModule(cfg)
    data = TokenDataModule(cfg.data)
    trainer = L.Trainer(**cfg.trainer, logger=build_logger(cfg), callbacks=build_callbacks(cfg))
    trainer.fit(module, datamodule=data, ckpt_path=cfg.get("resume_from"))""",
    """class TokenDataset(torch.utils.data.IterableDataset):
    def __init__(self, paths: list[str], seq_len: int, rank: int, world: int) -> None:
        self.paths = sorted(paths)[rank::world]
        self.seq_len = seq_len

    def __iter__(self):
        buf: list[int] = []
        for path in self.paths:
            for doc in read_jsonl_zst(path):
                buf.extend(doc["tokens"] + [EOS])
                while len(buf) > self.seq_len:
                    yield {"input_ids": buf[: self.seq_len + 1]}
                    buf = buf[self.seq_len:]""",
    """def all_reduce_mean(t: torch.Tensor) -> torch.Tensor:
    if not dist.is_available() or not dist.is_initialized():
        return t
    t = t.clone()
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return t / dist.get_world_size()""",
    """    @torch.no_grad()
    def validation_step(self, batch: dict[str, torch.Tensor], batch_idx: int) -> None:
        logits = self.model(batch["input_ids"])
        loss = F.cross_entropy(logits.flatten(0, 1).float(), batch["labels"].flatten(), ignore_index=-100)
        self.log("val/loss", loss, sync_dist=True)
        self.log("val/ppl", torch.exp(loss), sync_dist=True)""",
    """def build_scheduler(opt, cfg, total_steps: int):
    def lr_at(step: int) -> float:
        if step < cfg.warmup_steps:
            return step / max(1, cfg.warmup_steps)
        progress = (step - cfg.warmup_steps) / max(1, total_steps - cfg.warmup_steps)
        return cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * 0.5 * (1 + math.cos(math.pi * progress))
    return torch.optim.lr_scheduler.LambdaLR(opt, lr_at)""",
    """class SwiGLU(nn.Module):
    def __init__(self, d_model: int, hidden: int) -> None:
        super().__init__()
        self.w1 = nn.Linear(d_model, hidden, bias=False)
        self.w3 = nn.Linear(d_model, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d_model, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))""",
    """def test_collate_pads_to_multiple():
    batch = [{"input_ids": list(range(5))}, {"input_ids": list(range(11))}]
    out = collate(batch, pad_id=0, multiple_of=8)
    assert out["input_ids"].shape == (2, 16)
    assert (out["labels"][0, 4:] == -100).all()""",
)
CODE_LINES = tuple(line for block in CODE_BLOCKS for line in block.splitlines() if line.strip())


def _numbered(lines: list[str], start: int) -> str:
    return "\n".join(f"{start + i:>6}\t{line}" for i, line in enumerate(lines))


def _code_dump(rng: random.Random, chars: int) -> str:
    """A Python file shown with line numbers, cut to about ``chars``."""
    lines: list[str] = []
    size = 0
    while size < chars:
        block = rng.choice(CODE_BLOCKS).splitlines() + [""]
        lines += block
        size += sum(len(x) + 8 for x in block)
    start = rng.choice((1, 1, 1, rng.randint(20, 400)))
    return _numbered(lines, start)


def _yaml_lines(rng: random.Random) -> list[str]:
    return [
        "# @package _global_", "defaults:", "  - model: llama_1b", "  - data: mix_default", "  - trainer: fsdp",
        "  - _self_", "", f"seed: {rng.choice((0, 7, 42, 1234))}", "optim:", "  name: adamw",
        f"  lr: {rng.choice(('1.0e-4', '3.0e-4', '6.0e-4'))}", "  betas: [0.9, 0.95]",
        f"  weight_decay: {rng.choice(('0.1', '0.05', '0.0'))}", "  eps: 1.0e-8", "scheduler:", "  name: cosine",
        f"  warmup_steps: {rng.choice((1000, 2000, 4000))}", "  min_lr_ratio: 0.1", "trainer:",
        f"  max_steps: {rng.choice((50000, 100000, 200000))}", "  precision: bf16-mixed", "  gradient_clip_val: 1.0",
        f"  accumulate_grad_batches: {rng.choice((1, 2, 4))}", "  val_check_interval: 1000",
        "  log_every_n_steps: 10", f"  num_nodes: {rng.choice((1, 2, 4))}", "  devices: 8", "data:",
        f"  seq_len: {rng.choice((2048, 4096, 8192))}", f"  micro_batch_size: {rng.choice((4, 8, 16))}",
        "  num_workers: 8", f"  tokenizer: {rng.choice(('meta-llama/Llama-2-7b-hf', 'EleutherAI/gpt-neox-20b'))}",
        "model:", f"  d_model: {rng.choice((2048, 2560, 3072))}", f"  n_layers: {rng.choice((16, 24, 32))}",
        "  n_heads: 16", "  rope_theta: 10000.0", "  norm: rmsnorm", "  activation: swiglu", "logger:",
        f"  project: {rng.choice(('lm-pretrain', 'lm-sft', 'lm-evals'))}", "  log_model: false",
        "fsdp:", "  sharding_strategy: FULL_SHARD", "  activation_checkpointing: true", "  limit_all_gathers: true",
    ]


def _yaml_dump(rng: random.Random, chars: int, extra: str | None = None) -> str:
    """A Hydra config with line numbers (``extra``, a planted line, goes in its middle)."""
    lines = _yaml_lines(rng)
    if extra is not None:
        lines.insert(rng.randint(len(lines) // 3, 2 * len(lines) // 3), extra)
    while sum(len(x) + 8 for x in lines) < chars:
        lines += ["", f"# --- override block for {_run(rng)} ---"] + _yaml_lines(rng)[7:]
    return _numbered(lines, 1)


def _train_log(rng: random.Random, chars: int) -> str:
    """Lightning/Hydra training log lines."""
    step = rng.randint(1, 150) * 100
    loss = rng.uniform(1.9, 3.2)
    out: list[str] = []
    size = 0
    while size < chars:
        step += rng.choice((10, 10, 20, 50))
        loss = max(1.5, loss - rng.uniform(-0.02, 0.025))
        line = (f"[{_ts(rng)},{rng.randint(100, 999)}][lm.train][INFO] - step {step:>6} | loss {loss:.4f} | "
                f"lr {rng.uniform(1, 6):.2f}e-04 | gnorm {rng.uniform(0.2, 1.4):.3f} | "
                f"{rng.randint(140, 230)},{rng.randint(100, 999)} tok/s | mem {rng.uniform(40, 76):.1f}G")
        roll = rng.random()
        if roll < 0.05:
            line = f"[{_ts(rng)},{rng.randint(100, 999)}][lm.train][INFO] - val/loss {loss + rng.uniform(0.01, 0.1):.4f} val/ppl {rng.uniform(6, 20):.3f}"
        elif roll < 0.08:
            line = f"[{_ts(rng)},{rng.randint(100, 999)}][lm.data][INFO] - opened shard {rng.randint(0, 511):05d}-of-00512.bin ({rng.randint(180, 260)} MB)"
        elif roll < 0.1:
            line = f"Epoch 0:  {rng.randint(1, 99)}%|{'#' * rng.randint(1, 20)}| {step}/200000 [{rng.randint(1, 40)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}<{rng.randint(1, 90)}:{rng.randint(10, 59)}:00, {rng.uniform(0.4, 2.5):.2f}it/s, v_num={_alnum(rng, 4)}]"
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def _squeue(rng: random.Random, chars: int) -> str:
    head = "             JOBID PARTITION                           NAME     USER    STATE       TIME  NODES NODELIST(REASON)"
    out = [head]
    size = len(head)
    while size < chars and len(out) < 60:
        state = rng.choice(("RUNNING", "RUNNING", "PENDING", "RUNNING", "COMPLETI"))
        where = (f"hgx[{rng.randint(1, 20):02d}-{rng.randint(21, 48):02d}]" if state != "PENDING"
                 else rng.choice(("(Priority)", "(Resources)", "(Dependency)", "(BeginTime)")))
        line = (f"{_jid(rng):>18} {rng.choice(F_PARTS):>9} {_run(rng):>30} {rng.choice(F_USERS):>8} {state:>8} "
                f"{rng.randint(0, 47)}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {rng.choice((1, 2, 4, 8)):>6} {where}")
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def _nvidia_smi(rng: random.Random) -> str:
    rows = [f"Tue Jun {rng.randint(1, 28)} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} 2024",
            "+---------------------------------------------------------------------------------------+",
            "| NVIDIA-SMI 535.129.03             Driver Version: 535.129.03   CUDA Version: 12.2     |",
            "|-----------------------------------------+----------------------+----------------------+",
            "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |",
            "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |",
            "|=========================================+======================+======================|"]
    for g in range(8):
        used = rng.randint(20_000, 80_000)
        rows += [f"|   {g}  NVIDIA A100-SXM4-80GB          On  | 00000000:{rng.randint(10, 99):02X}:00.0 Off |                    0 |",
                 f"| N/A   {rng.randint(30, 72)}C    P0            {rng.randint(90, 400)}W / 400W |  {used:>5}MiB / 81920MiB |    {rng.randint(0, 100):>3}%      Default |",
                 "|                                         |                      |             Disabled |",
                 "+-----------------------------------------+----------------------+----------------------+"]
    rows += ["", "+---------------------------------------------------------------------------------------+",
             "| Processes:                                                                            |",
             "|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |",
             "|=======================================================================================|"]
    for g in range(8):
        rows.append(f"|    {g}   N/A  N/A    {rng.randint(10000, 99999)}      C   .../envs/lm/bin/python          {rng.randint(20000, 79000)}MiB |")
    rows.append("+---------------------------------------------------------------------------------------+")
    return "\n".join(rows)


def _pytest(rng: random.Random, chars: int, target: str, failure: str | None = None) -> str:
    """A pytest run over ``target``; ``failure``, a whole ``FAILED ...`` line, makes it fail."""
    files = [target]
    out = ["============================= test session starts ==============================",
           f"platform linux -- Python 3.11.{rng.randint(4, 9)}, pytest-8.{rng.randint(0, 2)}.{rng.randint(0, 2)}, pluggy-1.5.0",
           "rootdir: /home/mei/lm", "configfile: pyproject.toml",
           f"plugins: hydra-core-1.3.2, anyio-4.{rng.randint(2, 4)}.0, xdist-3.{rng.randint(3, 6)}.0",
           f"collected {rng.randint(40, 220)} items", ""]
    size = sum(len(x) for x in out)
    pct, marked = 0, failure is None
    while size < chars * 0.6 and pct < 100:
        pct = min(100, pct + rng.randint(3, 12))
        mark = "" if marked or pct < 40 else "F"
        marked = marked or bool(mark)
        line = f"{rng.choice(files)} {'.' * rng.randint(4, 40)}{mark}"
        line = f"{line:<72} [{pct:>3}%]"
        out.append(line)
        size += len(line) + 1
    out += ["", "=============================== warnings summary ==============================="]
    while size < chars * 0.9:
        w = rng.choice((
            "  /home/mei/.conda/envs/lm/lib/python3.11/site-packages/torch/utils/_pytree.py:185: FutureWarning: "
            "optree is installed but the version is too old to support PyTorch Dynamo in C++ pytree.",
            "  /home/mei/.conda/envs/lm/lib/python3.11/site-packages/lightning/fabric/connector.py:571: "
            "`precision=bf16` is supported for historical reasons but its usage is discouraged.",
            "  /home/mei/lm/src/lm/data/dataset.py:41: UserWarning: The given NumPy array is not writable, and PyTorch "
            "does not support non-writable tensors.",
            "  /home/mei/.conda/envs/lm/lib/python3.11/site-packages/transformers/tokenization_utils_base.py:1601: "
            "FutureWarning: `clean_up_tokenization_spaces` was not set.",
        ))
        out += [f"{rng.choice(files)}::test_{rng.choice(('shapes', 'mask', 'roundtrip', 'grad', 'pad'))}", w, ""]
        size += len(w) + 60
    out.append("-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html")
    secs = f"{rng.uniform(3, 140):.2f}s"
    if failure:
        out += ["=========================== short test summary info ============================", failure,
                f"==================== 1 failed, {rng.randint(40, 200)} passed, {rng.randint(1, 9)} warnings in {secs} ===================="]
    else:
        out.append(f"================= {rng.randint(40, 220)} passed, {rng.randint(1, 9)} warnings in {secs} =================")
    return "\n".join(out)


PIP_PKGS = ("transformers", "datasets", "accelerate", "lightning", "hydra-core", "omegaconf", "wandb", "tokenizers",
            "safetensors", "sentencepiece", "einops", "numpy", "pyarrow", "zstandard", "lm-eval", "evaluate")


def _pip(rng: random.Random, chars: int, conflict: str | None = None) -> str:
    out: list[str] = []
    size = 0
    installed: list[str] = []
    while size < chars * 0.85:
        pkg = rng.choice(PIP_PKGS)
        ver = f"{rng.randint(0, 4)}.{rng.randint(0, 45)}.{rng.randint(0, 9)}"
        installed.append(f"{pkg}-{ver}")
        lines = [f"Collecting {pkg}>={ver.rsplit('.', 1)[0]}",
                 f"  Downloading {pkg.replace('-', '_')}-{ver}-py3-none-any.whl.metadata ({rng.randint(2, 60)} kB)",
                 f"Requirement already satisfied: {rng.choice(PIP_PKGS)} in /home/mei/.conda/envs/lm/lib/python3.11/site-packages (from {pkg}) ({rng.randint(0, 9)}.{rng.randint(0, 30)}.0)",
                 f"  Downloading {pkg.replace('-', '_')}-{ver}-py3-none-any.whl ({rng.uniform(0.1, 40):.1f} MB)"]
        out += lines
        size += sum(len(x) + 1 for x in lines)
    out.append("Installing collected packages: " + ", ".join(p.rsplit("-", 1)[0] for p in installed[:8]))
    if conflict:
        out += ["ERROR: pip's dependency resolver does not currently take into account all the packages that are "
                "installed. This behaviour is the source of the following dependency conflicts.", conflict]
    out.append("Successfully installed " + " ".join(installed[:8]))
    return "\n".join(out)


GIT_MSGS = ("fix: pad labels with -100 after packing", "bump lightning to 2.3", "eval: add winogrande to default suite",
            "data: stream shards instead of materializing", "refactor optimizer param groups", "log tokens/sec per rank",
            "wip: rope scaling experiments", "configs: move fsdp knobs to trainer/fsdp.yaml", "tests for collate",
            "callbacks: lr monitor every 10 steps", "tokenizer: cache encoded shards", "revert 'try fused adamw'",
            "slurm: requeue on preemption", "notebook: loss curve helpers", "README: how to launch on 2 nodes")


def _git_log(rng: random.Random, chars: int) -> str:
    out: list[str] = []
    size = 0
    while size < chars:
        line = f"{_hex(rng, 7)} {rng.choice(GIT_MSGS)}"
        if rng.random() < 0.3:
            line = (f"commit {_hex(rng, 40)}\nAuthor: {rng.choice(F_PEOPLE)} <{rng.choice(F_USERS)}@lab.example.org>\n"
                    f"Date:   {_ts(rng)} +0200\n\n    {rng.choice(GIT_MSGS)}\n")
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def _lm_eval(rng: random.Random, tasks: list[str], planted: tuple[str, str] | None = None) -> str:
    """An lm-eval results table; ``planted`` (task, value) puts that task's score in the middle."""
    out = [f"hf (pretrained=/scratch/mei/ckpt/{_run(rng)}/hf,dtype=bfloat16), gen_kwargs: (None), limit: None, "
           f"num_fewshot: None, batch_size: {rng.choice((8, 16, 32))}",
           "|    Tasks    |Version|Filter|n-shot| Metric |   |Value |   |Stderr|",
           "|-------------|------:|------|-----:|--------|---|-----:|---|-----:|"]
    rows = [(t, f"{rng.uniform(0.22, 0.86):.4f}") for t in tasks]
    if planted:
        rows.insert(len(rows) // 2, planted)
    for task, value in rows:
        metric = rng.choice(("acc", "acc_norm")) if task != "gsm8k" else "exact_match"
        out.append(f"|{task:<13}|{rng.randint(0, 2):>7}|none  |{rng.choice((0, 5, 10, 25)):>6}|{metric:<8}|↑  |{value}|±  |{rng.uniform(0.003, 0.02):.4f}|")
    return "\n".join(out)


PROF_OPS = ("aten::mm", "aten::addmm", "aten::bmm", "aten::_scaled_dot_product_flash_attention", "aten::copy_",
            "aten::mul", "aten::add_", "aten::native_layer_norm", "nccl:all_reduce", "aten::cat", "aten::index_select",
            "ncclDevKernel_AllGather_RING_LL", "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", "aten::_foreach_mul_",
            "Optimizer.step#AdamW.step", "aten::silu", "aten::embedding_dense_backward", "aten::_to_copy",
            "triton_poi_fused_add_mul_0", "triton_poi_fused__to_copy_1", "cudaStreamSynchronize", "cudaLaunchKernel")


def _profiler(rng: random.Random, rows: int, top: str | None = None) -> str:
    """A torch.profiler key_averages table sorted by Self CUDA; ``top``, a planted op, leads it."""
    rule = "-" * 60 + "  " + "  ".join(["-" * 12] * 7)
    head = (f"{'Name':>60}  {'Self CPU %':>12}  {'Self CPU':>12}  {'CPU total':>12}  {'Self CUDA':>12}  "
            f"{'Self CUDA %':>12}  {'CUDA total':>12}  {'# of Calls':>12}")
    ops = list(PROF_OPS)
    rng.shuffle(ops)
    names = ([top] if top else []) + ops[:rows]
    cuda = sorted((rng.uniform(2, 900) for _ in names), reverse=True)
    if top:
        cuda[0] = cuda[1] * rng.uniform(1.6, 3.0)
    total = sum(cuda)
    out = [rule, head, rule]
    for name, ms in zip(names, cuda):
        out.append(f"{name:>60}  {rng.uniform(0, 9):>11.2f}%  {rng.uniform(0.1, 90):>10.3f}ms  {rng.uniform(1, 400):>10.3f}ms  "
                   f"{ms:>10.3f}ms  {100 * ms / total:>11.2f}%  {ms * rng.uniform(1, 1.3):>10.3f}ms  {rng.randint(8, 9000):>12}")
    out += [rule, f"Self CPU time total: {rng.uniform(1, 9):.3f}s", f"Self CUDA time total: {total / 1000:.3f}s"]
    return "\n".join(out)


def _scalars(rng: random.Random, chars: int) -> str:
    """A wandb history frame printed by a notebook cell."""
    out = ["       _step  train/loss  val/loss  train/lr  perf/tok_per_sec"]
    step, loss = 0, rng.uniform(2.6, 3.4)
    i = 0
    while sum(len(x) + 1 for x in out) < chars:
        step += 500
        loss -= rng.uniform(0.0, 0.02)
        out.append(f"{i:<5} {step:>7}  {loss:>10.6f}  {loss + rng.uniform(0.01, 0.08):>8.6f}  "
                   f"{rng.uniform(1, 3):.6f}e-04  {rng.randint(150_000, 230_000):>16}")
        i += 1
    out.append(f"\n[{i} rows x 5 columns]")
    return "\n".join(out)


def _grep(rng: random.Random, pattern: str, chars: int) -> str:
    out: list[str] = []
    size = 0
    while size < chars:
        line = f"{rng.choice(F_PY)}:{rng.randint(3, 420)}:{rng.choice(CODE_LINES)}"
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


DOC_SENTENCES = (
    "FullyShardedDataParallel shards parameters, gradients and optimizer state across data-parallel workers.",
    "With HYBRID sharding the model is sharded within a node and replicated across nodes, which trades memory for less inter-node traffic.",
    "Setting NCCL_DEBUG=INFO prints the topology NCCL detected and the transport chosen for each ring.",
    "NCCL_IB_TIMEOUT controls the InfiniBand verbs timeout; larger values help on congested fabrics.",
    "The caching allocator keeps freed blocks for reuse; fragmentation shows up as reserved memory well above allocated memory.",
    "expandable_segments:True in PYTORCH_CUDA_ALLOC_CONF lets the allocator grow segments instead of allocating new ones.",
    "Streaming datasets are read lazily, so map() runs on the fly and shuffling uses a buffer of examples.",
    "Hydra composes the config from the defaults list, then applies command-line overrides in order.",
    "Activation checkpointing recomputes the forward pass of wrapped modules during backward to save memory.",
    "FlashAttention-2 requires head dimensions that are multiples of 8 and supports up to 256.",
    "The profiler records CPU ops and CUDA kernels; use record_shapes=True to group averages by input shape.",
    "Public API runs expose history() for sampled metrics and scan_history() for the full, unsampled log.",
    "Gradient clipping with FSDP must use the module's clip_grad_norm_ so that the norm is computed over all shards.",
    "When resuming, the dataloader state is not restored by default; iterable datasets need their own state dict.",
    "Mixed precision with bf16 does not need a gradient scaler, unlike fp16.",
    "Issue: loss becomes NaN after resuming from checkpoint with a different world size (closed as duplicate).",
)


def _page(rng: random.Random, url: str, chars: int) -> str:
    out = [f"# {url.rsplit('/', 1)[-1] or url}", f"Source: {url}", ""]
    size = 0
    while size < chars:
        para = " ".join(rng.choice(DOC_SENTENCES) for _ in range(rng.randint(2, 5)))
        out += [para, ""]
        size += len(para) + 2
        if rng.random() < 0.2:
            code = f"```python\n{chr(10).join(rng.choice(CODE_LINES) for _ in range(rng.randint(3, 8)))}\n```"
            out += [code, ""]
            size += len(code)
    return "\n".join(out)


def _notebook(rng: random.Random, chars: int) -> str:
    """A notebook cell's output: a frame, a tensor, a figure."""
    n = rng.randint(3, 60)
    out: list[str] = []
    size = 0
    while size < chars:
        roll = rng.random()
        if roll < 0.4:
            part = [f"Out[{n}]:", "   step   loss_a   loss_b   delta"]
            for i in range(rng.randint(8, 30)):
                a = rng.uniform(1.8, 3.0)
                part.append(f"{i:>2} {rng.randint(1, 200) * 500:>6} {a:8.4f} {a + rng.uniform(-0.05, 0.05):8.4f} {rng.uniform(-0.05, 0.05):+7.4f}")
        elif roll < 0.7:
            vals = ", ".join(f"{rng.uniform(-2, 2):.4f}" for _ in range(6))
            part = [f"Out[{n}]:", f"tensor([[{vals}],", f"        [{vals}]], device='cuda:0', dtype=torch.bfloat16)"]
        elif roll < 0.85:
            part = [f"<Figure size {rng.choice((1200, 1400))}x{rng.choice((400, 500, 600))} with {rng.randint(1, 4)} Axes>"]
        else:
            part = [f"{k}: {rng.randint(1000, 9_000_000)}" for k in ("n_docs", "n_tokens", "mean_len", "p50_len", "p99_len")]
        n += 1
        out += part + [""]
        size += sum(len(x) + 1 for x in part)
    return "\n".join(out)


def _data_log(rng: random.Random, chars: int) -> str:
    """Tokenization and dedup pipeline log lines."""
    out: list[str] = []
    size = 0
    while size < chars:
        shard = rng.randint(0, 1023)
        line = rng.choice((
            f"[{_ts(rng)}] tokenize shard {shard:05d}/01024 docs={rng.randint(9000, 30000)} tokens={rng.randint(20, 90)}.{rng.randint(0, 9)}M elapsed={rng.uniform(10, 90):.1f}s",
            f"[{_ts(rng)}] minhash shard {shard:05d} signatures={rng.randint(9000, 30000)} bands=20 rows=13",
            f"[{_ts(rng)}] filter shard {shard:05d} lang!=en dropped {rng.randint(10, 900)} short<{rng.choice((50, 100))}w dropped {rng.randint(10, 900)}",
            f"[{_ts(rng)}] wrote s3://lm-data-raw/tokenized/v{rng.randint(1, 3)}/shard_{shard:05d}.bin ({rng.randint(100, 400)} MB)",
        ))
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def _sacct(rng: random.Random, chars: int) -> str:
    out = ["JobID           JobName  Partition    Elapsed      State ExitCode",
           "------------ ---------- ---------- ---------- ---------- --------"]
    while sum(len(x) + 1 for x in out) < chars and len(out) < 80:
        jid = _jid(rng)
        state = rng.choice(("COMPLETED", "COMPLETED", "FAILED", "TIMEOUT", "CANCELLED+", "RUNNING"))
        out.append(f"{jid:<12} {_run(rng)[:10]:>10} {rng.choice(F_PARTS):>10} {rng.randint(0, 47):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {state:>10} {rng.choice(('0:0', '1:0', '0:15')):>8}")
        out.append(f"{jid + '.batch':<12} {'batch':>10} {'':>10} {rng.randint(0, 47):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} {state:>10} {'0:0':>8}")
    return "\n".join(out)


def _listing(rng: random.Random, chars: int) -> str:
    run = _run(rng)
    out = [f"total {rng.randint(40, 900)}G"]
    while sum(len(x) + 1 for x in out) < chars and len(out) < 90:
        out.append(f"-rw-r--r-- 1 mei lm {rng.uniform(1, 14):.1f}G Jun {rng.randint(1, 28):>2} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} "
                   f"/scratch/mei/ckpt/{run}/{_fckpt(rng)}")
    return "\n".join(out)


# --- the builder ----------------------------------------------------------------------------------------------

@dataclass
class _Builder:
    """Appends messages, keeps the character budget, claims planted values and records facts."""

    rng: random.Random
    n: int
    messages: list[Message] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    pasted: list[tuple[int, str]] = field(default_factory=list)
    claimed: list[str] = field(default_factory=list)
    used: list[Any] = field(default_factory=list)  # the makers planted from, so kinds vary before they repeat
    owed: list[str] = field(default_factory=lambda: ["fetch", "edit", "write", "grep", "read_py", "plot", "tail"])
    chars: int = 0
    calls: int = 0

    @property
    def at(self) -> int:
        return len(self.messages)

    @property
    def roomy(self) -> bool:
        return self.n >= 300

    def add(self, message: Message) -> int:
        self.messages.append(message)
        self.chars += len(text_of(message))
        return len(self.messages) - 1

    def user(self, text: str) -> int:
        return self.add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self.add({"role": "assistant", "content": text})

    def _call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        self.calls += 1
        cid = f"call_{self.calls:05d}{_alnum(self.rng, 11)}"
        return {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}

    def step(self, name: str, args: dict[str, Any], output: str | Callable[[int], str], note: str = "") -> tuple[int, int]:
        """One call and its result; ``output`` may be a function of the characters the budget allows."""
        call = self._call(name, args)
        at = self.add({"role": "assistant", "content": note, "tool_calls": [call]})
        text = output(self.budget()) if callable(output) else output
        done = self.add({"role": "tool", "tool_call_id": call["id"], "name": name, "content": text})
        return at, done

    def both(self, first: tuple[str, dict[str, Any], Callable[[int], str]],
             second: tuple[str, dict[str, Any], Callable[[int], str]], note: str) -> None:
        """Two calls in one assistant message, then both results (three messages)."""
        calls = [self._call(first[0], first[1]), self._call(second[0], second[1])]
        self.add({"role": "assistant", "content": note, "tool_calls": calls})
        for call, (name, _args, output) in zip(calls, (first, second)):
            text = output(self.budget() // 2)
            self.add({"role": "tool", "tool_call_id": call["id"], "name": name, "content": text})

    def budget(self, cap: int = 15000) -> int:
        """Characters for the next tool result: what keeps the session near CHARS_PER_MESSAGE a message."""
        target = (self.at + 2) * CHARS_PER_MESSAGE
        want = target - self.chars + int(CHARS_PER_MESSAGE * self.rng.uniform(-0.3, 0.9))
        return max(350, min(cap, want))

    def claim(self, make: Callable[[], str], tries: int = 60) -> str:
        """A new planted string: neither inside nor around one claimed before."""
        for _ in range(tries):
            value = make()
            if not any(value in c or c in value for c in self.claimed):
                self.claimed.append(value)
                return value
        raise RuntimeError("planted vocabulary exhausted")

    def fact(self, kind: str, value: str, index: int, query: str, **extra: Any) -> None:
        self.facts.append(Fact(kind, value, index, query, **extra))

    def scrub(self) -> None:
        """Keep planted values out of the filler: where a random number or id of the filler happens to spell
        one, outside the messages allowed to say it, change one character of it."""
        guards: list[tuple[str, list[tuple[int, int]]]] = []
        for f in self.facts:
            guards.append((f.value, [(f.index, f.index + AFTER_VALUE)]))
            if f.stale is not None and f.stale_index is not None:
                guards.append((f.stale, [(f.stale_index, f.stale_index + STALE_AFTER), (f.index, f.index + AFTER_VALUE)]))
        for _ in range(6):
            texts = [text_of(m) for m in self.messages]
            starts, pos = [], 0
            for t in texts:
                starts.append(pos)
                pos += len(t) + 1
            whole = "\x00".join(texts)
            dirty = False
            for value, spans in guards:
                hit = whole.find(value)
                while hit != -1:
                    i = bisect_right(starts, hit) - 1
                    if not any(a <= i <= b for a, b in spans):
                        self._mutate(i, value)
                        dirty = True
                    hit = whole.find(value, hit + 1)
            if not dirty:
                break
        for f in self.facts:
            if f.value not in text_of(self.messages[f.index]):
                raise RuntimeError(f"scrubbing lost {f}")

    def _mutate(self, i: int, value: str) -> None:
        k = max(j for j, c in enumerate(value) if c.isalnum())
        c = value[k]
        c = str((int(c) + 3) % 10) if c.isdigit() else ("x" if c.lower() != "x" else "q")
        other = value[:k] + c + value[k + 1:]
        message = self.messages[i]
        message["content"] = str(message.get("content") or "").replace(value, other)
        for call in message.get("tool_calls") or []:
            call["function"]["arguments"] = call["function"]["arguments"].replace(value, other)
        self.pasted = [(j, p.replace(value, other) if j == i else p) for j, p in self.pasted]


# --- filler: her one-off requests and the agent's routine loops ----------------------------------------------

# (her request, the first step of the agent's loop); {run} {jid} {node} {py} {yaml} {test} {ds} {url} {task}
REQUESTS = (
    ("plot the loss curve for {run}", "plot"), ("plot train vs val loss for {run} pls", "plot"),
    ("what's in the queue rn", "squeue"), ("is {jid} still running?", "squeue"), ("queue?", "squeue"),
    ("check gpu util on {node}", "smi"), ("{node} feels slow, can you look at nvidia-smi", "smi"),
    ("tail the log for {run}", "tail"), ("how's {run} doing", "tail"), ("loss still going down on {run}?", "tail"),
    ("run the tests for the data module", "pytest"), ("run the unit tests before I push", "pytest"),
    ("where do we set the grad clip?", "grep"), ("grep for apply_rotary callers", "grep"),
    ("find where we build the scheduler", "grep"), ("show me {py}", "read_py"),
    ("what does {py} do again", "read_py"), ("open {yaml}", "read_yaml"), ("what's the seq len in {yaml}?", "read_yaml"),
    ("summarize this for me: {url}", "fetch"), ("skim {url}, anything relevant for us?", "fetch"),
    ("how many tokens are in the {ds} sample we cached", "count"), ("quick stats on the {ds} cache", "count"),
    ("profile a few steps of {run}, something is slow", "prof"), ("why is step time so spiky on {run}", "prof"),
    ("eval the latest ckpt of {run} on the default suite", "eval"), ("numbers for {run} on {task}?", "eval"),
    ("pull the wandb history for {run}", "wandb"), ("compare {run} with the baseline in wandb", "wandb"),
    ("how far along is the tokenization job", "data"), ("is the dedup pass done?", "data"),
    ("git log since yesterday", "git"), ("what changed in the last few commits", "git"),
    ("upgrade transformers in the env", "pip"), ("pip install the eval deps", "pip"),
    ("which of my jobs failed this week", "sacct"), ("sacct for the last 2 days", "sacct"),
    ("how big are the ckpts for {run}", "ls"), ("list the checkpoints of {run}", "ls"),
    ("rename the logger project in {yaml} to match the others", "edit"), ("add a docstring to collate", "edit"),
    ("jot down today's results in notes/{day}.md", "write"), ("write a small README for the eval scripts", "write"),
    ("帮我看看 {run} 的 loss 为什么不降", "tail"), ("集群上现在排队的情况怎么样", "squeue"), ("跑一下测试", "pytest"),
    ("把 {run} 的 loss 曲线画出来", "plot"), ("看一下 {node} 的显存", "smi"),
)
CHAT = (
    "lol ok", "thx", "nice", "ok cool", "brb lunch", "hmm ok", "k", "好的", "谢谢", "先这样吧", "等一下，我在开会",
    "is it just me or is the cluster slow today", "coffee first ☕", "meeting ran long, back now", "今天集群好慢啊",
    "ok that makes sense", "ugh", "can you remind me what we were doing", "sorry, got pulled into a call",
    "reviewers are going to hate this figure lol", "ok going home, leave it running", "早上好", "back",
)
CHAT_REPLIES = (
    "No rush — nothing is blocked on you right now. {run} is still training and the queue looks normal.",
    "Sure. Where we are: {run} is training, the last eval finished, and nothing is waiting on you.",
    "Welcome back. Nothing changed while you were away except {run} moving a few thousand steps further.",
    "Got it. I'll leave everything as is; {run} keeps running and I'll check the log when you're back.",
    "Yes, the scheduler is busier than usual today — {jid} has been pending on Priority for a while.",
)
NOTES = {
    "plot": "Plotting the curves from the wandb history.", "squeue": "Checking the queue.",
    "smi": "Looking at the GPUs on that node.", "tail": "Tailing the training log.", "pytest": "Running the tests.",
    "grep": "Searching the repo.", "read_py": "Opening the file.", "read_yaml": "Opening the config.",
    "fetch": "Fetching the page.", "count": "Counting in the notebook.", "prof": "Profiling a few steps.",
    "eval": "Running the eval harness.", "wandb": "Pulling the history from wandb.", "data": "Checking the pipeline log.",
    "git": "Looking at the history.", "pip": "Installing.", "sacct": "Asking Slurm's accounting.",
    "ls": "Listing the checkpoint directory.", "edit": "Making the edit.", "write": "Writing it.",
}


def _ctx(rng: random.Random) -> dict[str, str]:
    """The ids, paths and names one filler episode talks about."""
    return {"run": _run(rng), "jid": _jid(rng), "node": _node(rng), "py": rng.choice(F_PY), "yaml": rng.choice(F_YAML),
            "test": rng.choice(F_TESTS), "ds": rng.choice(F_DATASETS), "url": rng.choice(F_URLS),
            "task": rng.choice(F_TASKS), "day": f"2024-{rng.randint(3, 9):02d}-{rng.randint(1, 28):02d}",
            "wid": _wid(rng)}


Step = tuple[str, dict[str, Any], Callable[[int], str]]


def _filler_step(rng: random.Random, kind: str, c: dict[str, str]) -> Step:
    """A routine call of the agent's, its arguments and a function making its output at a given size."""
    run = c["run"]
    if kind == "plot":
        code = (f"import wandb, matplotlib.pyplot as plt\napi = wandb.Api()\nh = api.run('mei/lm-pretrain/{c['wid']}')"
                f".history(keys=['train/loss', 'val/loss'])\nax = h.plot(x='_step', y=['train/loss', 'val/loss'], logy=True)\n"
                f"ax.set_title('{run}')\nh.describe()")
        return "python", {"code": code}, lambda n: _notebook(rng, n)
    if kind == "squeue":
        return "run_shell", {"command": "squeue -u mei,jweber,pkumar -o '%.18i %.9P %.30j %.8u %.8T %.10M %.6D %R'"}, \
            lambda n: _squeue(rng, min(n, 7000))
    if kind == "smi":
        return "run_shell", {"command": f"srun --jobid {c['jid']} --overlap -w {c['node']} nvidia-smi"}, \
            lambda n: _nvidia_smi(rng)
    if kind == "tail":
        return "run_shell", {"command": f"tail -n 300 /scratch/mei/logs/{run}/train.log"}, lambda n: _train_log(rng, n)
    if kind == "pytest":
        return "run_shell", {"command": f"python -m pytest {c['test']} -q -x"}, lambda n: _pytest(rng, n, c["test"])
    if kind == "grep":
        pattern = rng.choice(("clip_grad", "apply_rotary", "build_scheduler", "seed_everything", "pad_id", "sync_dist"))
        return "search_code", {"pattern": pattern, "path": "src/"}, lambda n: _grep(rng, pattern, min(n, 9000))
    if kind == "read_py":
        return "read_file", {"path": c["py"]}, lambda n: _code_dump(rng, n)
    if kind == "read_yaml":
        return "read_file", {"path": c["yaml"]}, lambda n: _yaml_dump(rng, min(n, 5000))
    if kind == "fetch":
        return "fetch_url", {"url": c["url"]}, lambda n: _page(rng, c["url"], n)
    if kind == "count":
        code = (f"from datasets import load_from_disk\nds = load_from_disk('/scratch/mei/cache/{c['ds'].replace('/', '__')}')\n"
                "lens = ds.map(lambda x: {'n': len(x['input_ids'])}, num_proc=16)['n']\npd.Series(lens).describe()")
        return "python", {"code": code}, lambda n: _notebook(rng, min(n, 6000))
    if kind == "prof":
        code = ("with torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:\n"
                "    for _ in range(8):\n        trainer_step(batch)\n"
                "print(p.key_averages().table(sort_by='self_cuda_time_total', row_limit=20))")
        return "python", {"code": code}, lambda n: _profiler(rng, 18)
    if kind == "eval":
        tasks = rng.sample(F_TASKS, rng.randint(5, 10))
        return "run_shell", {"command": f"lm_eval --model hf --model_args pretrained=/scratch/mei/ckpt/{run}/hf "
                                        f"--tasks {','.join(tasks)} --batch_size auto"}, lambda n: _lm_eval(rng, tasks)
    if kind == "wandb":
        return "python", {"code": f"run = wandb.Api().run('mei/lm-pretrain/{c['wid']}')\nrun.history(samples=2000)"}, \
            lambda n: _scalars(rng, min(n, 9000))
    if kind == "data":
        return "run_shell", {"command": "tail -n 200 /scratch/mei/logs/tokenize/pipeline.log"}, lambda n: _data_log(rng, n)
    if kind == "git":
        return "run_shell", {"command": "git log --since=yesterday --stat=80 | head -n 200"}, lambda n: _git_log(rng, min(n, 8000))
    if kind == "pip":
        return "run_shell", {"command": "pip install -U " + " ".join(rng.sample(PIP_PKGS, 3))}, lambda n: _pip(rng, min(n, 6000))
    if kind == "sacct":
        return "run_shell", {"command": "sacct -u mei -S now-2days -o JobID,JobName,Partition,Elapsed,State,ExitCode"}, \
            lambda n: _sacct(rng, min(n, 8000))
    if kind == "ls":
        return "run_shell", {"command": f"ls -lh /scratch/mei/ckpt/{run}/"}, lambda n: _listing(rng, min(n, 6000))
    if kind == "edit":
        path = c["yaml"] if rng.random() < 0.5 else c["py"]
        old = rng.choice(CODE_LINES) if path.endswith(".py") else "  log_model: false"
        return "edit_file", {"path": path, "old_str": old, "new_str": old + "  # reviewed"}, \
            lambda n: f"Edited {path}: 1 replacement (line {rng.randint(5, 300)})."
    content = "\n".join(["# Notes", ""] + [f"- {run}: {rng.choice(GIT_MSGS)}" for _ in range(rng.randint(3, 9))])
    path = f"notes/{c['day']}.md"
    return "write_file", {"path": path, "content": content}, lambda n: f"Wrote {len(content.encode())} bytes to {path}."


FOLLOWUPS = ("tail", "read_py", "grep", "read_yaml", "squeue", "git", "smi", "ls", "data", "fetch", "sacct", "wandb")
SUMMARIES = {
    "plot": "Plotted train and val loss for {run} (log y). Val tracks train closely, no sign of overfitting yet; the bump around the middle lines up with the restart from checkpoint.",
    "squeue": "Queue: {run} is RUNNING, two of Jonas's jobs are pending on Priority, and {jid} is waiting on Resources. Nothing of yours is stuck.",
    "smi": "All 8 GPUs on {node} are busy at high utilization; memory is between 40 and 78 GB. Nothing looks throttled and there is no stray process from an older job.",
    "tail": "{run} is healthy: loss is still drifting down slowly, gnorm stays under 1.5, and throughput is steady. Last val/loss is a hair above train, as expected.",
    "pytest": "Tests pass ({test}); only the usual FutureWarnings from torch and transformers.",
    "grep": "Found the call sites; the main one is in the module's training step, the rest are tests and the eval harness.",
    "read_py": "{py}: the model pieces and the training step as you remember them. Nothing in there has changed since last week.",
    "read_yaml": "{yaml}: adamw with cosine decay, bf16-mixed, FSDP FULL_SHARD with activation checkpointing. The data section sets the seq len and micro batch.",
    "fetch": "Short version of {url}: mostly background we already follow. One relevant bit: the allocator and NCCL settings are worth double-checking on the new nodes.",
    "count": "The {ds} cache: stats are above; lengths are heavy-tailed, the p99 is far above the median, so packing helps.",
    "prof": "Matmuls and attention dominate as expected; communication is a modest share, and there are no obvious host-side stalls.",
    "eval": "Eval done for {run}: numbers are in the table, within noise of the previous checkpoint on most tasks.",
    "wandb": "Pulled the history for {run} ({wid}); the curves are smooth and the lr schedule looks right.",
    "data": "The pipeline is chugging along: shards are being tokenized and written; no errors in the last 200 lines.",
    "git": "Recent commits are small: data streaming, eval suite tweaks and a test for collate. Nothing touches the optimizer.",
    "pip": "Installed; pip reported no conflicts this time.",
    "sacct": "Most jobs completed; a couple timed out and one was cancelled. None failed with a non-zero exit apart from those.",
    "ls": "Checkpoints for {run} are listed above, a few GB each; the oldest ones could be pruned if we need space.",
    "edit": "Done, one-line change.",
    "write": "Written.",
}
QUICK = (
    ("what's the difference between acc and acc_norm again",
     "acc picks the answer with the highest total log-likelihood; acc_norm divides it by the answer's length in bytes "
     "first, so long answers aren't penalized for having more tokens. For hellaswag and arc, acc_norm is the one people quote."),
    ("remind me why bf16 doesn't need a grad scaler",
     "bf16 has the same exponent range as fp32 (8 bits), so small gradients don't underflow the way they do in fp16. "
     "The scaler exists to shift fp16 gradients into range; with bf16 there is nothing to shift, you only lose mantissa precision."),
    ("should I worry about the FutureWarning spam in the tests",
     "No. They come from torch's pytree module and transformers' tokenizer defaults, not from our code. They'll matter "
     "when we upgrade past the versions that remove those paths; I can silence them in pyproject.toml if they bother you."),
    ("is val every 1000 steps too often",
     "At our step time a validation pass every 1000 steps costs about 2% of wall time. Every 2000 would halve that and "
     "still give enough points to see divergence early. Fine either way."),
    ("why does FSDP use more memory on rank 0",
     "Usually because rank 0 also materializes the full state dict for checkpointing, and the logger and the eval hooks run "
     "there. With sharded checkpoints the gap mostly goes away."),
    ("pre-LN vs post-LN, remind me",
     "Pre-LN normalizes the input of each sublayer and keeps the residual stream un-normalized, which trains stably without "
     "warmup tricks; post-LN normalizes after the residual add and tends to need careful warmup. Our model is pre-LN (RMSNorm)."),
    ("这个 warning 要紧吗",
     "不要紧，是 transformers 的 tokenizer 默认参数要变了的提醒，跟我们的训练没关系。"),
)


def _her(rng: random.Random, text: str) -> str:
    """Her typing: sometimes lowercase and terse, sometimes a typo or two."""
    if rng.random() < 0.35:
        text = _typo(rng, text, 0.12)
    if rng.random() < 0.2:
        text = text.rstrip("?.") + rng.choice((" pls", " thx", "", " 🙏"))
    return text


def _filler(b: _Builder, length: int) -> None:
    """A routine episode of exactly ``length`` messages (from 2), ending on an answer without calls."""
    rng = b.rng
    c = _ctx(rng)
    if length == 2:
        if rng.random() < 0.5:
            b.user(rng.choice(CHAT))
            b.say(_fill(rng.choice(CHAT_REPLIES), **c))
        else:
            question, answer = rng.choice(QUICK)
            b.user(_her(rng, question))
            b.say(answer)
        return
    request, kind = rng.choice(REQUESTS)
    if length >= 4 and b.owed:  # every tool shows up early in the session
        kind = b.owed.pop(rng.randrange(len(b.owed)))
        request = rng.choice([q for q, k in REQUESTS if k == kind])
    if length == 3:
        b.user(_her(rng, _fill(request, **c)))
        b.user(rng.choice(("nvm, later", "actually no, skip it", "wait, not now — in a meeting", "算了，晚点再说")))
        b.say("OK, parking it. Say the word when you want it.")
        return
    b.user(_her(rng, _fill(request, **c)))
    middle = length - 2
    kinds = [kind]
    if middle % 2:
        kinds.append(rng.choice([f for f in FOLLOWUPS if f != kind]))
        b.both(_filler_step(rng, kinds[0], c), _filler_step(rng, kinds[1], c), NOTES[kinds[0]])
        middle -= 3
    else:
        b.step(*_filler_step(rng, kind, c), note=NOTES[kind])
        middle -= 2
    while middle > 0:
        follow = rng.choice([f for f in FOLLOWUPS if f not in kinds[-1:]])
        kinds.append(follow)
        b.step(*_filler_step(rng, follow, c), note=rng.choice(("", "Let me also check one more thing.", NOTES[follow])))
        middle -= 2
    lines = [_fill(SUMMARIES[kinds[0]], **c)]
    for k in dict.fromkeys(kinds[1:]):
        if k != kinds[0] and rng.random() < 0.5:
            lines.append("- " + _fill(SUMMARIES[k], **c))
    b.say("\n".join(lines))


def _filler_length(rng: random.Random) -> int:
    return rng.choice((2, 2, 3, 4, 4, 4, 5, 6, 6, 6, 7, 8, 8, 10))


# --- planted: her standing rules ------------------------------------------------------------------------------
# Each maker returns the value and the pieces its phrasings need: ``rule`` (an imperative), ``want`` (what she
# wants, as a noun phrase), ``zh`` (the rule in Mandarin), ``why`` (her reason), ``me`` (a fact about herself,
# optional). Every piece says the value as ``{v}``.

Spec = dict[str, Any]


def _i_seed(r: random.Random) -> Spec:
    return {"value": str(r.randint(10007, 99989)), "query": "Which seed does she want every run fixed to?",
            "rule": "fix every seed to {v}: python, numpy, torch and the dataloader workers",
            "want": "seeds fixed to {v} everywhere", "zh": "以后所有实验的随机种子都固定成 {v}，dataloader 的 worker 也一样",
            "why": "two ablations last month didn't reproduce because the seeds drifted"}


def _i_gitsha(r: random.Random) -> Spec:
    return {"value": r.choice(("provenance.git_sha", "meta.commit_sha", "repro.git_rev", "run_info.code_sha")),
            "query": "Under which wandb config key should each run record its git commit?",
            "rule": "put the git sha of the working tree into the wandb config under `{v}`",
            "want": "every run's wandb config to carry the git sha under `{v}`",
            "zh": "每个 run 都要把 git sha 记在 wandb config 的 `{v}` 下面",
            "why": "half the time I can't tell which code a run was launched from"}


def _i_greedy(r: random.Random) -> Spec:
    return {"value": "greedy decoding", "query": "How should generative evals decode?",
            "rule": "run every generative eval with {v}, no sampling",
            "want": "every generative eval on {v}", "zh": "以后所有的评测都用 {v}，别用 sampling",
            "why": "the sampled evals made last week's comparison meaningless"}


def _i_columns(r: random.Random) -> Spec:
    return {"value": f"{r.choice((4, 5, 6))} columns wide", "query": "How wide may the tables in her summaries be?",
            "rule": "keep tables at most {v}", "want": "tables no more than {v}", "zh": "表格最多 {v}，我在手机上看",
            "why": "I read most of your summaries on my phone",
            "me": "I read these on my phone on the shuttle, so keep tables narrow, {v} max"}


def _i_cadence(r: random.Random) -> Spec:
    return {"value": f"every {r.choice((1500, 2500, 3500, 4500, 7500))} steps", "query": "How often should checkpoints be saved?",
            "rule": "save checkpoints {v} and keep only the last three", "want": "checkpoints {v}, only the last three kept",
            "zh": "checkpoint 就 {v} 存一次，只留最后三个", "why": "the scratch quota is tight again"}


def _i_project(r: random.Random) -> Spec:
    value = f"{r.choice(('mei', 'mw'))}-{r.choice(('scaling', 'ablate', 'ctxlen', 'sftmix'))}-{r.choice('pqrstuvwxyz')}{r.randint(2, 9)}"
    return {"value": value, "query": "Which wandb project should runs log to?",
            "rule": "log every run to the wandb project {v}", "want": "all runs in the wandb project {v}",
            "zh": "所有的 run 都记到 wandb 的 {v} 这个 project 里",
            "why": "my runs are scattered over four wandb projects and I can't find anything"}


def _i_walltime(r: random.Random) -> Spec:
    return {"value": f"--time={r.randint(5, 11):02d}:{r.choice(('15', '30', '45', '50'))}:00",
            "query": "What walltime limit does she want on sbatch jobs?",
            "rule": "cap the sbatch walltime at {v} so jobs backfill", "want": "sbatch walltimes capped at {v}",
            "zh": "sbatch 的 walltime 不要超过 {v}，这样能 backfill", "why": "anything longer never backfills on this cluster"}


def _i_uv(r: random.Random) -> Spec:
    return {"value": "uv pip install", "query": "How should packages be installed?",
            "rule": "install packages with {v} into the project venv, never into the shared conda env",
            "want": "packages installed with {v} in the project venv",
            "zh": "装包一律用 {v}，别动共享的 conda 环境", "why": "someone broke the shared conda env twice this month"}


def _i_throughput(r: random.Random) -> Spec:
    return {"value": r.choice(("tokens/sec/GPU", "TFLOP/s per GPU")), "query": "In what unit should throughput be reported?",
            "rule": "report throughput as {v}", "want": "throughput reported as {v}", "zh": "吞吐量统一用 {v} 来报",
            "why": "everyone reports throughput differently and nothing is comparable"}


def _i_decimals(r: random.Random) -> Spec:
    return {"value": f"{r.choice((2, 3))} decimal places", "query": "To how many decimals should eval numbers be rounded?",
            "rule": "round eval numbers to {v}", "want": "eval numbers rounded to {v}", "zh": "评测结果保留 {v} 就够了",
            "why": "four decimals is false precision with our stderr",
            "me": "I paste these straight into slides, so round eval numbers to {v}"}


def _i_naming(r: random.Random) -> Spec:
    return {"value": r.choice(("yymmdd-<model>-<change>", "<model>_<change>_<yymmdd>")), "query": "What naming scheme should runs follow?",
            "rule": "name runs {v}", "want": "run names in the form {v}", "zh": "run 的名字统一用 {v} 这种格式",
            "why": "I can't tell what half of the run names mean anymore"}


def _i_nodes(r: random.Random) -> Spec:
    return {"value": f"{r.choice((2, 3, 6))} nodes at a time", "query": "How many nodes may she use at once?",
            "rule": "never use more than {v}", "want": "no more than {v}", "zh": "同时最多用 {v}，别多占",
            "why": "the group's fairshare is nearly used up"}


def _i_outdir(r: random.Random) -> Spec:
    return {"value": f"/scratch/mei/{r.choice(('runs', 'exp', 'work'))}_{r.choice(('v2', 'main', '2024'))}",
            "query": "Where should checkpoints and logs be written?",
            "rule": "write checkpoints and logs under {v}, never under $HOME", "want": "checkpoints and logs under {v}",
            "zh": "checkpoint 和 log 都写到 {v} 下面，不要写 $HOME", "why": "$HOME is on the slow NFS with a 50G quota"}


def _i_colormap(r: random.Random) -> Spec:
    return {"value": r.choice(("viridis", "cividis")), "query": "What colormap should plots use?",
            "rule": "use {v} for every plot", "want": "every plot in {v}", "zh": "画图都用 {v} 配色",
            "why": "red and green look the same to me", "me": "I'm red-green colorblind, so please stick to {v} in plots"}


def _i_logits(r: random.Random) -> Spec:
    return {"value": "fp32 logits", "query": "In what precision should eval logits be computed?",
            "rule": "compute eval log-likelihoods from {v}", "want": "eval log-likelihoods computed from {v}",
            "zh": "评测一律用 {v} 算 loglik", "why": "bf16 logits moved mmlu by almost a point last time"}


INSTRUCTIONS = (_i_seed, _i_gitsha, _i_greedy, _i_columns, _i_cadence, _i_project, _i_walltime, _i_uv, _i_throughput,
                _i_decimals, _i_naming, _i_nodes, _i_outdir, _i_colormap, _i_logits)
STYLES = {
    "casual": ("fwiw I always want {want}", "btw: {rule}, always", "small thing — {rule} from now on pls",
               "going forward {rule} ok?"),
    "indirect": ("it'd be nice if you could {rule} from here on", "would be great if we could {rule} by default",
                 "could you make it a habit to {rule}?"),
    "reason": ("{why}, so from now on {rule}.", "{why}. so, standing rule: {rule}", "because {why}: {rule}. every time."),
    "trailing": ("{request}. oh and going forward, {rule}", "{request} — also, for everything after this: {rule}",
                 "{request}\n\nunrelated, but from now on {rule}"),
    "mandarin": ("{zh}", "另外，{zh}", "{zh}。记住哦"),
    "self": ("{me}", "{me}. thx"),
}
ACKS = ("Noted — {want} from here on.", "Got it, that applies to everything from now on.", "Understood, I'll keep to that.",
        "Will do. I'll apply it to new runs and to anything I touch.", "好的，记住了。", "Noted: {rule}.")


# --- planted: corrections (a near miss of what she said before) and decisions -------------------------------

def _c_split(r: random.Random) -> Spec:
    base = r.choice(("val", "heldout", "devmix", "evalset"))
    a, b = r.sample(range(1, 10), 2)
    return {"stale": f"{base}_{a}k", "value": f"{base}_{b}k", "query": "Which split should the evals run on?",
            "said": ("run the eval on the {s} split tonight", "for the comparison let's use {s} as the eval split"),
            "fix": ("wait no, the eval split is {v} not {s}", "ugh sorry — {v}. {s} has the leaked docs", "不对，eval split 应该是 {v}")}


def _c_node(r: random.Random) -> Spec:
    c = r.choice("abcdef")
    x, y = r.sample(range(1, 10), 2)
    return {"stale": f"gpu-{c}{x}{y}", "value": f"gpu-{c}{y}{x}", "query": "Which node should jobs be kept off?",
            "said": ("the flaky node is {s}, add it to --exclude in the sbatch", "{s} keeps throwing ECC errors, keep jobs off it"),
            "fix": ("sorry, I meant node {v}", "wrong node, it's {v} 🙃", "不对，是 {v} 那台")}


def _c_lr(r: random.Random) -> Spec:
    a = r.randint(1, 4)
    x, y = r.sample(range(1, 10), 2)
    return {"stale": f"{a}.{x}e-4", "value": f"{a}.{y}e-4", "query": "What peak learning rate should the SFT rerun use?",
            "said": ("lr for the sft rerun: {s}", "let's set peak lr to {s} for the sft rerun"),
            "fix": ("不对，学习率是{v}", "typo earlier, peak lr is {v} not {s}", "lr {v}* for the sft rerun")}


def _c_bucket(r: random.Random) -> Spec:
    base = f"s3://{r.choice(('mei-lm', 'lmgrp', 'mw-lab'))}-{r.choice(('ckpts', 'evals', 'exports'))}-"
    x, y = r.sample(("use1", "usw2", "euw1", "euc1", "apse1"), 2)
    return {"stale": base + x, "value": base + y, "query": "Which bucket should the final outputs go to?",
            "said": ("copy the final ckpt to {s} when it's done", "push the eval outputs to {s} once they finish"),
            "fix": ("the other bucket. {v}", "ugh wrong region, {v}", "不是那个 bucket，是 {v}")}


def _c_mix(r: random.Random) -> Spec:
    tag = f"mix-{r.randint(3, 9):02d}{r.randint(1, 28):02d}"
    x, y = r.sample("abcdef", 2)
    return {"stale": tag + x, "value": tag + y, "query": "Which data mix should the rerun use?",
            "said": ("use the {s} data mix for the rerun", "{s} is the mix we're training the rerun on"),
            "fix": ("tiny fix: {v}, not {s}", "mix is {v} sorry, {s} had the broken code shards", "应该是 {v}，我打错了")}


def _c_step(r: random.Random) -> Spec:
    a, c = r.randint(1, 9), r.choice("05")
    x, y = r.sample(range(1, 10), 2)
    return {"stale": f"step_{a}{x}{c}00", "value": f"step_{a}{y}{c}00", "query": "Which checkpoint should be evaluated?",
            "said": ("eval the {s} checkpoint on the full suite", "the one to ship is {s}, eval that one"),
            "fix": ("oops, I meant {v}", "{v}, not {s} — that one is before the spike", "是 {v}，不是 {s}")}


def _c_seqlen(r: random.Random) -> Spec:
    a, b = r.sample((3072, 3584, 5120, 6144, 7168), 2)
    return {"stale": f"max_seq_len={a}", "value": f"max_seq_len={b}",
            "query": "What max sequence length should the long-document eval use?",
            "said": ("run the long-doc eval with {s}", "for the long-doc eval set {s}"),
            "fix": ("erm {v}, my bad", "不对，{v}", "{v} for the long-doc eval, not {s}")}


def _c_env(r: random.Random) -> Spec:
    py = r.choice(("310", "311"))
    a, b = r.sample(("118", "121", "124"), 2)
    return {"stale": f"lm-cu{a}-py{py}", "value": f"lm-cu{b}-py{py}", "query": "Which environment should jobs activate?",
            "said": ("activate {s} before running anything on the new nodes", "jobs on the new nodes should use the {s} env"),
            "fix": ("I meant {v}, the other env has the old flash-attn", "env 是 {v}", "{v}*")}


def _c_dropout(r: random.Random) -> Spec:
    a, b = r.sample(("0.02", "0.03", "0.05", "0.07", "0.08"), 2)
    return {"stale": f"attn_dropout={a}", "value": f"attn_dropout={b}",
            "query": "What attention dropout should the finetune config set?",
            "said": ("set {s} in the finetune config", "finetune: {s}, the rest as in the base config"),
            "fix": ("{v} actually, not {s}", "dropout 写错了，是 {v}", "sorry, {v}")}


def _c_deadline(r: random.Random) -> Spec:
    month = r.choice(("June", "July", "Sept"))
    a, b = r.sample(range(10, 29), 2)
    return {"stale": f"{month} {a}", "value": f"{month} {b}", "query": "When is the camera-ready due?",
            "said": ("camera-ready is due {s}, plan backwards from that", "fyi camera-ready deadline is {s}"),
            "fix": ("no wait, camera-ready is {v} — I misread the email", "deadline 是 {v}，不是 {s}")}


def _c_tokenizer(r: random.Random) -> Spec:
    k = r.choice((32, 64, 100))
    a, b = r.sample(range(1, 6), 2)
    return {"stale": f"tok/bpe-{k}k-v{a}", "value": f"tok/bpe-{k}k-v{b}",
            "query": "Which tokenizer should the new shards be tokenized with?",
            "said": ("tokenize the new shards with {s}", "new shards go through {s}"),
            "fix": ("wrong tokenizer, {v}", "tokenizer 用 {v}", "{v}!! not {s}")}


def _c_accum(r: random.Random) -> Spec:
    a, b = r.sample((3, 6, 12, 24), 2)
    return {"stale": f"grad_accum={a}", "value": f"grad_accum={b}", "query": "What gradient accumulation should the run use?",
            "said": ("use {s} so the global batch matches the paper", "{s} for the replication run"),
            "fix": ("{v} I mean, we're on fewer nodes now", "梯度累积是 {v}", "meant {v}")}


CORRECTIONS = (_c_split, _c_node, _c_lr, _c_bucket, _c_mix, _c_step, _c_seqlen, _c_env, _c_dropout, _c_deadline,
               _c_tokenizer, _c_accum)


def _decision(options: tuple[str, ...], topic: str, zh: str, query: str) -> Callable[[random.Random], Spec]:
    def make(r: random.Random) -> Spec:
        first, second = r.sample(options, 2)
        return {"stale": first, "value": second, "topic": topic, "zh": zh, "query": query}
    return make


DECISIONS = (
    _decision(tuple(f"warmup {n}" for n in (350, 450, 650, 750, 900, 1250)), "for the cosine schedule", "学习率 schedule",
              "What warmup did she settle on for the schedule?"),
    _decision(("SOAP", "Lion-8bit", "Sophia-G", "AdEMAMix", "Adan"), "as the optimizer for the 1B runs", "1B 的优化器",
              "Which optimizer did she pick for the 1B runs?"),
    _decision(("1.5M-token batches", "3M-token batches", "4M-token batches", "6M-token batches"), "for pretraining",
              "预训练的 batch", "What batch size in tokens did she choose for pretraining?"),
    _decision(tuple(f"{a}/{100 - a} code/web mix" for a in (20, 25, 30, 35, 40)), "for continued pretraining", "数据配比",
              "What code-to-web ratio did she choose for continued pretraining?"),
    _decision(tuple(f"{n}M proxy" for n in (125, 160, 350, 410, 760)), "for the ablations", "消融实验",
              "Which model size will the ablations use?"),
    _decision(("HYBRID_SHARD", "SHARD_GRAD_OP", "FULL_SHARD with CPU offload"), "for the 3B", "3B 的 FSDP 策略",
              "Which FSDP sharding strategy did she settle on for the 3B?"),
    _decision(("cross-doc attention masking", "first-fit-decreasing packing", "length-bucketed padding"),
              "for the SFT data", "SFT 数据打包", "How will the SFT sequences be packed?"),
    _decision(tuple(f"{n}k vocab" for n in (48, 80, 128, 160)), "for the new tokenizer", "新 tokenizer 的词表",
              "Which vocabulary size did she choose for the new tokenizer?"),
    _decision(tuple(f"minhash threshold {x}" for x in ("0.72", "0.78", "0.82", "0.86", "0.9")), "for dedup", "去重",
              "What MinHash threshold will dedup use?"),
    _decision(tuple(f"rope base {x}" for x in ("500k", "1M", "2M", "5M", "8M")), "for the context extension", "长上下文",
              "What RoPE base did she choose for the context extension?"),
    _decision(tuple(f"EMA decay {x}" for x in ("0.9993", "0.9995", "0.9998")), "for the eval weights", "评测权重",
              "What EMA decay will the eval weights use?"),
    _decision(("TransformerEngine fp8", "torchao float8", "bf16 with fp32 master weights"), "for the H100 runs",
              "H100 上的精度", "Which mixed-precision setup did she pick for the H100 runs?"),
)
DECIDE = ("ok let's go with {v} {topic}", "decision {topic}: {v}. not revisiting this week", "fine, {v} it is, {topic}",
          "{zh}就用 {v} 吧", "after staring at the curves I'm going with {v} {topic}", "let's lock in {v} {topic}")
REVISE = ("changed my mind {topic} — {v} instead of {s}", "scratch {s}, go with {v} {topic}",
          "actually {v}. {s} was a mistake given the throughput numbers", "改一下：{zh}用 {v}，不用 {s} 了")


# --- planted: errors (a whole line of a tool's output) ---------------------------------------------------------

TB_TRAIN = (
    ('/home/mei/lm/src/lm/train.py', 61, 'main', 'trainer.fit(module, datamodule=data, ckpt_path=cfg.get("resume_from"))'),
    ('/home/mei/.conda/envs/lm/lib/python3.11/site-packages/lightning/pytorch/trainer/trainer.py', 543, 'fit',
     'call._call_and_handle_interrupt('),
    ('/home/mei/.conda/envs/lm/lib/python3.11/site-packages/lightning/pytorch/trainer/call.py', 43, '_call_and_handle_interrupt',
     'return trainer.strategy.launcher.launch(trainer_fn, *args, trainer=trainer, **kwargs)'),
    ('/home/mei/.conda/envs/lm/lib/python3.11/site-packages/lightning/pytorch/loops/fit_loop.py', 205, 'run', 'self.advance()'),
    ('/home/mei/.conda/envs/lm/lib/python3.11/site-packages/lightning/pytorch/loops/training_epoch_loop.py', 250, 'advance',
     'batch_output = self.automatic_optimization.run(trainer.optimizers[0], batch_idx, kwargs)'),
    ('/home/mei/lm/src/lm/module.py', 74, 'training_step', 'logits = self.model(batch["input_ids"])'),
    ('/home/mei/.conda/envs/lm/lib/python3.11/site-packages/torch/nn/modules/module.py', 1541, '_call_impl',
     'return forward_call(*args, **kwargs)'),
    ('/home/mei/lm/src/lm/model/attention.py', 52, 'forward',
     'out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)'),
)


PY_FRAMES = (
    ('  File "/home/mei/.conda/envs/lm/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1541, in _call_impl',
     "    return forward_call(*args, **kwargs)"),
    ('  File "/home/mei/.conda/envs/lm/lib/python3.11/site-packages/torch/utils/_contextlib.py", line 115, in decorate_context',
     "    return func(*args, **kwargs)"),
)


def _traceback(r: random.Random, depth: int) -> list[str]:
    frames = list(TB_TRAIN[: max(2, min(depth, len(TB_TRAIN)))])
    out = ["Traceback (most recent call last):"]
    for path, line, fn, code in frames:
        out += [f'  File "{path}", line {line + r.randint(0, 3)}, in {fn}', f"    {code}"]
    return out


def _e_oom(r: random.Random) -> Spec:
    exp = r.choice(("pt_1b_long", "pt_3b", "sft_mix", "ctx_32k"))
    line = (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {r.uniform(1, 9):.2f} GiB. GPU {r.randint(0, 7)} "
            f"has a total capacity of 79.15 GiB of which {r.randint(101, 999)}.{r.randint(10, 99)} MiB is free. Including "
            f"non-PyTorch memory, this process has {r.uniform(77, 79):.2f} GiB memory in use.")
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "What error did the long-context launch hit?",
            "args": {"command": f"srun --jobid {_jid(r)} --overlap python -m lm.train experiment={exp} data.micro_batch_size={r.choice((12, 16, 24))}"},
            "ask": "launch the long-context config on the interactive allocation", "log": "train",
            "tail": ["srun: error: hgx11: task 0: Exited with exit code 1"], "fix": "turned activation checkpointing back on"}


def _e_watchdog(r: random.Random) -> Spec:
    rank, m = r.randint(0, 15), r.randint(10_000_000, 300_000_000)
    line = (f"[rank{rank}]:[E{r.randint(601, 928)} {r.randint(10, 23)}:{r.randint(10, 59)}:{r.randint(10, 59)}.{r.randint(100000, 999999)} "
            f"{r.randint(10000, 99999)} ProcessGroupNCCL.cpp:{r.randint(560, 640)}] [Rank {rank}] Watchdog caught collective "
            f"operation timeout: WorkNCCL(SeqNum={r.randint(1000, 90000)}, OpType=ALLREDUCE, NumelIn={m}, NumelOut={m}, "
            f"Timeout(ms)=600000) ran for {r.randint(600001, 620000)} milliseconds before timing out.")
    run = _run(r)
    return {"tool": "run_shell", "line": line, "fixable": False, "query": "What did the hung run's rank log end with?",
            "args": {"command": f"tail -n 80 /scratch/mei/logs/{run}/rank{rank}.log"},
            "ask": f"{run} hung overnight?? what happened", "log": "train", "trace": False,
            "tail": [f"[rank{rank}]:[E ProcessGroupNCCL.cpp:{r.randint(1400, 1600)}] To avoid data inconsistency, we are taking the entire process down."]}


def _e_nccl(r: random.Random) -> Spec:
    line = (f"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:{r.randint(200, 330)}, "
            f"unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.{r.randint(18, 21)}.{r.randint(1, 6)}")
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "Why did the two-node smoke test fail?",
            "args": {"command": f"srun -N 2 --ntasks-per-node=8 python -m lm.train experiment={r.choice(('pt_3b', 'moe_8x'))} trainer.max_steps=50"},
            "ask": "smoke test on 2 nodes pls, 50 steps", "log": "short", "tail": ["srun: error: hgx07: tasks 8-15: Exited with exit code 1"],
            "fix": "set NCCL_IB_HCA and NCCL_SOCKET_IFNAME in the launch script"}


def _e_nan(r: random.Random) -> Spec:
    line = f"FloatingPointError: loss is nan at step {r.randint(10_000, 90_000)} (last finite loss {r.uniform(1.8, 2.9):.4f}, grad_norm inf)"
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "What stopped the resumed run?",
            "args": {"command": f"srun --jobid {_jid(r)} --overlap python -m lm.train experiment=pt_1b resume_from=last trainer.max_steps={r.randint(3, 9)}0000"},
            "ask": "resume the 1B from last and watch it for a bit", "log": "train", "tail": [],
            "fix": "lowered the lr after the restart and re-enabled the z-loss term"}


def _e_pytest(r: random.Random) -> Spec:
    path = f"tests/test_{r.choice(('packing_masks', 'rope_cache', 'shard_sampler', 'loss_scaling', 'pad_collate'))}.py"
    a = r.randint(1000, 9000)
    line = (f"FAILED {path}::test_{r.choice(('boundaries', 'roundtrip', 'resume', 'lengths'))}[{r.choice(('bf16', 'fp32', 'seq', 'varlen'))}"
            f"-{r.randint(2, 64)}] - AssertionError: assert {a} == {a + r.randint(1, 8)}")
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "Which test failed, and how?",
            "args": {"command": f"python -m pytest {path} -q"}, "ask": "run the new tests", "log": "pytest", "target": path,
            "tail": [], "fix": "fixed the off-by-one at the shard boundary"}


def _e_pip(r: random.Random) -> Spec:
    pkg, dep = r.choice(("vllm", "flash-attn", "deepspeed", "xformers", "bitsandbytes")), r.choice(("torch", "triton", "numpy"))
    want, have = f"{r.randint(1, 2)}.{r.randint(0, 5)}.{r.randint(0, 3)}", f"{r.randint(1, 2)}.{r.randint(0, 5)}.{r.randint(4, 9)}"
    line = f"{pkg} {r.randint(0, 2)}.{r.randint(1, 9)}.{r.randint(0, 9)} requires {dep}=={want}, but you have {dep} {have} which is incompatible."
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "What dependency conflict did the install report?",
            "args": {"command": f"pip install -r requirements/{r.choice(('eval', 'serve', 'train'))}.txt"},
            "ask": "install the eval requirements into the env", "log": "pip", "tail": [], "fix": f"pinned {dep} in the requirements file"}


def _e_hub(r: random.Random) -> Spec:
    name = f"{r.choice(('mei-lab', 'lm-group'))}/{r.choice(('sft', 'pref', 'code', 'math'))}-{r.choice(('mix', 'pairs', 'clean'))}-v{r.randint(2, 9)}"
    line = f"datasets.exceptions.DatasetNotFoundError: Dataset '{name}' doesn't exist on the Hub or cannot be accessed."
    return {"tool": "python", "line": line, "fixable": True, "query": "Why couldn't the notebook load the SFT dataset?",
            "args": {"code": f"from datasets import load_dataset\nds = load_dataset('{name}', split='train', streaming=True); print(next(iter(ds)))"},
            "ask": "load the new sft set in the notebook and show me one example", "log": "short", "tail": [],
            "frames": (('  File "/home/mei/.conda/envs/lm/lib/python3.11/site-packages/datasets/load.py", line 2556, in load_dataset',
                        "    builder_instance = load_dataset_builder("),
                       ('  File "/home/mei/.conda/envs/lm/lib/python3.11/site-packages/datasets/load.py", line 2228, in load_dataset_builder',
                        "    dataset_module = dataset_module_factory(")),
            "clean": "{'messages': [{'role': 'user', 'content': 'Explain gradient checkpointing in two sentences.'}, "
                     "{'role': 'assistant', 'content': 'It stores fewer activations ...'}], 'source': 'sft-mix'}",
            "fix": "logged in with the lab token"}


def _e_shape(r: random.Random) -> Spec:
    a = r.choice((2048, 4096, 8192))
    line = f"RuntimeError: The size of tensor a ({a}) must match the size of tensor b ({a + r.choice((1, 8, 64, 128))}) at non-singleton dimension {r.randint(1, 3)}"
    return {"tool": "python", "line": line, "fixable": True, "query": "What failed when running the packed batch through the model?",
            "args": {"code": "batch = next(iter(dm.train_dataloader()))\nwith torch.no_grad():\n    out = model(batch['input_ids'].cuda(), cu_seqlens=batch['cu_seqlens'].cuda())"},
            "ask": "push one packed batch through the model in the notebook", "log": "short", "tail": [], "fix": "fixed the cos/sin cache length",
            "clean": f"out.logits.shape = torch.Size([1, {a}, 50304])"}


def _e_timeout(r: random.Random) -> Spec:
    jid = _jid(r)
    line = f"slurmstepd: error: *** JOB {jid} ON {_node(r)} CANCELLED AT 2024-0{r.randint(3, 9)}-{r.randint(10, 28)}T0{r.randint(1, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)} DUE TO TIME LIMIT ***"
    return {"tool": "run_shell", "line": line, "fixable": False, "query": "How did the sweep job end?",
            "args": {"command": f"tail -n 60 /scratch/mei/logs/slurm-{jid}.out"}, "ask": "the sweep job disappeared from the queue, why",
            "log": "train", "trace": False, "tail": []}


def _e_state(r: random.Random) -> Spec:
    d, v = r.choice((2048, 2560, 3072)), r.choice((32000, 50304, 128256))
    line = (f"RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM: size mismatch for lm_head.weight: copying a param "
            f"with shape torch.Size([{v + r.choice((64, 128, 256))}, {d}]) from checkpoint, the shape in current model is torch.Size([{v}, {d}]).")
    return {"tool": "python", "line": line, "fixable": True, "query": "Why did loading the converted checkpoint fail?",
            "args": {"code": f"sd = torch.load('/scratch/mei/ckpt/{_run(r)}/{_fckpt(r)}', map_location='cpu')['state_dict']\nmodel.load_state_dict(sd)"},
            "ask": "load the converted ckpt into the HF model in the notebook", "log": "short", "tail": [], "fix": "resized the embeddings to the padded vocab",
            "clean": "<All keys matched successfully>"}


def _e_hydra(r: random.Random) -> Spec:
    key = r.choice(("rope_scaling_factor", "attn_logit_softcap", "qk_layernorm", "embedding_multiplier"))
    line = f"omegaconf.errors.ConfigAttributeError: Key '{key}' is not in struct"
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "Why did the config override fail?",
            "args": {"command": f"python -m lm.train experiment=ctx_32k model.{key}={r.choice(('2.0', '30.0', 'true'))} --cfg job"},
            "ask": "print the resolved config with the new override", "log": "short", "trace": False,
            "tail": [f"    full_key: model.{key}", "    object_type=dict", "", "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."],
            "fix": "added the key to the model schema"}


def _e_worker(r: random.Random) -> Spec:
    line = f"RuntimeError: DataLoader worker (pid {r.randint(100000, 999999)}) is killed by signal: Killed."
    return {"tool": "run_shell", "line": line, "fixable": True, "query": "What killed the data-heavy run?",
            "args": {"command": f"srun --jobid {_jid(r)} --overlap python -m lm.train experiment=sft_mix data.num_workers={r.choice((16, 24, 32))}"},
            "ask": "start the sft run with more dataloader workers", "log": "train", "tail": [], "fix": "dropped the shuffle buffer size"}


ERRORS = (_e_oom, _e_watchdog, _e_nccl, _e_nan, _e_pytest, _e_pip, _e_hub, _e_shape, _e_timeout, _e_state, _e_hydra, _e_worker)


# --- planted: files, identifiers, findings, plans -------------------------------------------------------------

FILES = (  # (path, write or edit, what she asks for without naming the file)
    ("src/lm/callbacks/zloss_monitor{n}.py", "write", "can you write a callback that logs the z-loss per layer every few hundred steps"),
    ("src/lm/callbacks/spike_rewind{n}.py", "write", "we need something that rewinds to the last good ckpt when the loss spikes, write it as a callback"),
    ("src/lm/data/doc_boundary_mask{n}.py", "write", "write the helper that builds the block-diagonal attention mask from doc boundaries"),
    ("src/lm/data/length_curriculum{n}.py", "write", "add a sampler that grows the seq len over the first few thousand steps"),
    ("configs/experiment/abl_qknorm{n}.yaml", "write", "make an experiment config for the qk-norm ablation, based on the 1B base"),
    ("configs/experiment/abl_embscale{n}.yaml", "write", "config for the embedding-scale ablation pls, same as base otherwise"),
    ("scripts/slurm/eval_sweep{n}.sbatch", "write", "write an sbatch array script that evals every ckpt of the sweep"),
    ("scripts/slurm/requeue_chain{n}.sbatch", "write", "write an sbatch that requeues itself when it gets preempted"),
    ("tools/compare_runs{n}.py", "write", "write a little script that diffs two wandb runs: config and final metrics"),
    ("tools/ckpt_to_hf{n}.py", "write", "write the converter from our lightning ckpt to HF format"),
    ("src/lm/eval/decontam{n}.py", "write", "write the 13-gram decontamination check against the eval sets"),
    ("src/lm/model/moe_router{n}.py", "edit", "clamp the router logits before the softmax in the moe router"),
    ("src/lm/utils/nccl_env{n}.py", "edit", "bump the NCCL timeouts where we set the env"),
    ("tests/test_doc_masks{n}.py", "write", "write tests for the doc-boundary mask"),
)


def _file_content(r: random.Random, path: str) -> str:
    if path.endswith(".yaml"):
        return "\n".join(["# @package _global_", "defaults:", "  - override /model: llama_1b", "  - _self_", ""]
                         + _yaml_lines(r)[7:27])
    if path.endswith(".sbatch"):
        return "\n".join(["#!/bin/bash", f"#SBATCH --job-name={path.rsplit('/', 1)[-1].split('.')[0]}", "#SBATCH --nodes=1",
                          "#SBATCH --gpus-per-node=8", "#SBATCH --cpus-per-task=12", "#SBATCH --signal=B:USR1@300",
                          "#SBATCH --output=/scratch/mei/logs/slurm-%A_%a.out", "", "source ~/.bashrc", "conda activate lm",
                          "export NCCL_DEBUG=WARN", 'trap "scontrol requeue $SLURM_JOB_ID" USR1', "",
                          'srun python -m lm.train "$@" &', "wait"])
    blocks = r.sample(CODE_BLOCKS, 3)
    return '"""' + path.rsplit("/", 1)[-1] + ': written for the ablations."""\n\n' + "\n\n\n".join(blocks) + "\n"


def _ident_user(r: random.Random, kind: int) -> Spec:
    if kind == 0:
        v = _alnum(r, 3) + str(r.randint(10, 99)) + _alnum(r, 3)
        return {"value": v, "say": ("baseline to beat is wandb run {v}, the one from before the holiday", "基线用 wandb 上的 {v}"),
                "query": "Which wandb run is the baseline to beat?"}
    if kind == 1:
        v = f"/checkpoint/lm/{r.choice(('mw_1b_anneal', 'mei_3b_ctx', 'lm1b_sftmix'))}/global_step{r.randint(11, 99) * 1000}"
        return {"value": v, "say": ("the good checkpoint is {v}, use that for the evals", "evals should use {v}"),
                "query": "Which checkpoint should the evals use?"}
    if kind == 2:
        v = f"s3://{r.choice(('lm-raw-ingest', 'mei-crawl', 'lmgrp-web'))}/{r.choice(('cc-2024-10', 'cc-2023-50', 'code-dedup'))}/{_hex(r, 4)}/"
        return {"value": v, "say": ("raw shards live in {v}, read from there", "the raw shards are in {v} fyi"),
                "query": "Where do the raw shards live?"}
    if kind == 3:
        v = _hex(r, 12)
        return {"value": v, "say": ("compare against commit {v}, that's before the attention refactor",
                                    "reference commit is {v} (pre-refactor)"), "query": "Which commit is the pre-refactor reference?"}
    if kind == 4:
        v = _hex(r, 40)
        return {"value": v, "say": ("pin the sft dataset to revision {v}, the newer ones changed the chat template",),
                "query": "Which revision should the SFT dataset be pinned to?"}
    v = str(r.randint(40_000_000, 69_999_999))
    return {"value": v, "say": ("can you keep an eye on job {v}, it's the 3B run", "job {v} is the 3B, check it every now and then"),
            "query": "Which Slurm job is the 3B run?"}


def _ident_tool(r: random.Random, kind: int) -> Spec:
    if kind == 0:
        v = str(r.randint(40_000_000, 69_999_999))
        return {"value": v, "ask": "submit the 3B anneal", "tool": "run_shell",
                "args": {"command": "sbatch scripts/launch.sbatch experiment=pt_3b_anneal"},
                "lines": ["sbatch: Verify job submission ... ok", f"Submitted batch job {v}"], "query": "What job id did the anneal get?"}
    if kind == 1:
        v = _alnum(r, 2) + str(r.randint(100, 999)) + _alnum(r, 3)
        name = f"{r.choice(F_RUNS)}-relaunch"
        return {"value": v, "ask": "relaunch it with the fixed config", "tool": "run_shell",
                "args": {"command": "srun --jobid 3000000 --overlap python -m lm.train experiment=pt_1b_fixed"},
                "lines": [f"wandb: Syncing run {name}", "wandb: ⭐️ View project at https://wandb.ai/mei/lm-pretrain",
                          f"wandb: 🚀 View run at https://wandb.ai/mei/lm-pretrain/runs/{v}"],
                "query": "Which wandb run id did the relaunch get?"}
    if kind == 2:
        v = _hex(r, 40)
        return {"value": v, "ask": "which commit are we on? I want to tag the sweep", "tool": "run_shell",
                "args": {"command": "git rev-parse HEAD && git status --short | head"},
                "lines": [v, " M configs/train/base.yaml", "?? notes/"], "query": "Which commit was the sweep launched from?"}
    v = f"/scratch/mei/ckpt/{r.choice(('pt-1b-anneal', 'ctx-32k-ext', 'sft-v3'))}/epoch=0-step={r.randint(10, 99)}{r.choice(('250', '750'))}.ckpt"
    return {"value": v, "ask": "save a ckpt right now before the spike region", "tool": "python",
            "args": {"code": "trainer.save_checkpoint(ckpt_dir / f'epoch=0-step={trainer.global_step}.ckpt')"},
            "lines": [f"Saving checkpoint to {v}", f"checkpoint written in {r.uniform(20, 90):.1f}s"],
            "query": "Where was the pre-spike checkpoint saved?"}


def _finding(r: random.Random, kind: int) -> Spec:
    """A finding: the value, the line that holds it, the call that prints it and how to build the output."""
    if kind == 0:
        key, val = r.choice((("z_loss_coef", f"{r.randint(1, 9)}.{r.randint(1, 9)}e-5"), ("router_aux_coef", f"0.0{r.randint(11, 99)}"),
                             ("qk_norm_eps", f"{r.randint(2, 9)}.0e-{r.randint(5, 7)}"), ("emb_scale", f"{r.randint(8, 40)}.5"),
                             ("logit_softcap", f"{r.randint(15, 50)}.0")))
        v = f"{key}: {val}"
        return {"value": v, "line": "  " + v, "out": "yaml", "tool": "read_file", "args": {"path": "configs/experiment/ablation_base.yaml"},
                "ask": "what does the ablation base config set for the new knob?", "query": f"What {key.replace('_', ' ')} does the ablation base config set?",
                "say": "The ablation base sets {v}."}
    if kind == 1:
        v = f"{r.choice(('triton_red_fused_rmsnorm_bwd', 'fused_moe_permute_kernel', 'cutlass_grouped_gemm_bf16', 'varlen_unpad_gather_kernel', 'rotary_emb_bwd_kernel'))}_{r.randint(2, 97)}"
        return {"value": v, "line": None, "out": "prof", "tool": "python", "ask": "profile 8 steps of the MoE config, it's 30% slower than it should be",
                "args": {"code": "with torch.profiler.profile(activities=[ProfilerActivity.CUDA]) as p:\n    run_steps(8)\nprint(p.key_averages().table(sort_by='self_cuda_time_total', row_limit=16))"},
                "query": "Which op dominated GPU time in the MoE profile?",
                "say": "The top of the table is {v}, well ahead of the matmuls."}
    if kind == 2:
        v = f"decoder.layers.{r.randint(1, 31)}.{r.choice(('mlp.down_proj', 'attn.q_norm', 'moe.router.gate', 'attn.o_proj'))}"
        line = f"[nan_guard] first non-finite activation: {v} (output, step {r.randint(10_000, 90_000)}, max abs inf)"
        return {"value": v, "line": line, "out": "train", "tool": "run_shell", "ask": "rerun the diverging run with the nan guard on",
                "args": {"command": "srun --jobid 3100000 --overlap python -m lm.train experiment=pt_1b debug.nan_guard=true"},
                "query": "Which layer did the NaN guard blame first?",
                "say": "The guard fires first at {v}."}
    if kind == 3:
        task = r.choice(("mmlu_pro", "ruler_niah_32k", "humaneval_plus", "mgsm_native_cot_zh", "bbh_cot_fewshot", "longbench_qasper"))
        v = f"{r.uniform(0.2, 0.8):.4f}"
        return {"value": v, "line": None, "task": task, "out": "eval", "tool": "run_shell", "ask": f"eval the candidate on the full suite incl. {task}",
                "args": {"command": f"lm_eval --model hf --model_args pretrained=/scratch/mei/ckpt/candidate/hf --tasks default,{task} --batch_size auto"},
                "query": f"What did the candidate checkpoint score on {task}?",
                "say": f"{task}: {{v}}; the rest is in line with the previous checkpoint."}
    if kind == 4:
        kept = r.randint(10_000_000, 99_000_000)
        v = f"{kept:,}"
        line = f"[dedup] kept {v} of {kept + r.randint(1_000_000, 30_000_000):,} documents, {r.randint(100_000, 900_000):,} duplicate clusters"
        return {"value": v, "line": line, "out": "data", "tool": "run_shell", "ask": "did the dedup finish? how much is left",
                "args": {"command": "tail -n 120 /scratch/mei/logs/dedup/summary.log"}, "query": "How many documents survived dedup?",
                "say": "Dedup is done: {v} documents kept."}
    if kind == 5:
        v = f"{r.uniform(28, 58):.1f}% MFU"
        line = f"[bench] {r.randint(2000, 9000):,} tok/s/gpu | {v} | step {r.uniform(0.8, 4):.2f}s | peak mem {r.uniform(50, 78):.1f} GiB"
        return {"value": v, "line": line, "out": "train", "tool": "run_shell", "ask": "run the throughput benchmark for the new attention kernel",
                "args": {"command": "python -m lm.bench.throughput experiment=pt_3b steps=40"}, "query": "What utilization did the throughput benchmark reach?",
                "say": "The benchmark reaches {v}."}
    if kind == 6:
        lang = r.choice(("Thai", "Hindi", "Vietnamese", "Swahili", "Korean"))
        v = f"{r.uniform(1.2, 4.5):.3f} tokens/word"
        line = f"fertility[{lang}] = {v} (n={r.randint(2000, 9000)} docs)"
        return {"value": v, "line": line, "out": "notebook", "tool": "python", "ask": f"how bad is the new tokenizer on {lang}?",
                "args": {"code": f"fertility(tok_new, samples['{lang}'])"}, "query": f"What fertility did the new tokenizer get on {lang}?",
                "say": f"On {lang} it is {{v}}."}
    if kind == 7:
        v = f"cc-main-2023-{r.randint(14, 50)}/shard_{r.randint(0, 99999):05d}.jsonl.zst"
        line = f"[data] worker {r.randint(0, 15)} stalled {r.uniform(20, 90):.1f}s reading {v} (retry 2/5)"
        return {"value": v, "line": line, "out": "data", "tool": "run_shell", "ask": "why does the dataloader stall every few minutes",
                "args": {"command": "grep -n 'stalled' /scratch/mei/logs/pt-1b/data.log | tail -n 80"},
                "query": "Which shard was stalling the dataloader?",
                "say": "The stalls all come from one shard: {v}."}
    v = "QOSMaxGRESPerUser"
    line = f"{str(r.randint(40_000_000, 69_999_999)):>18}  gpu-h100 {'pt-3b-anneal':>30}      mei  PENDING       0:00      4 ({v})"
    return {"value": v, "line": line, "out": "squeue", "tool": "run_shell", "ask": "why are my jobs not starting",
            "args": {"command": "squeue -u mei -t PENDING"}, "query": "Why were her jobs pending?",
            "say": "They are held by {v}: the group is at its GPU limit."}


PLAN_STEPS = (  # (a maker of the planted step, what the plan is about, the question about it)
    (lambda r: f"anneal on {r.choice((20, 30, 40, 60))}B tokens of math+code", "the end of pretraining",
     "What does she plan to do at the end of pretraining?"),
    (lambda r: f"rerun the needle eval at {r.choice((24, 48, 96))}k", "the context extension", "Which long-context eval does her plan rerun?"),
    (lambda r: f"distill into the {r.choice((300, 500, 700))}M student", "the small model", "What is the distillation step of her plan?"),
    (lambda r: f"re-tokenize the {r.choice(('Thai', 'Vietnamese', 'Hindi', 'Swahili'))} subset", "the tokenizer fix",
     "Which subset does her plan re-tokenize?"),
    (lambda r: f"ablate qk-norm at the {r.choice((150, 400, 1200))}M scale", "the stability work", "At what scale does her plan ablate qk-norm?"),
    (lambda r: f"drop the {r.choice(('reddit-2019', 'stackexchange-dup', 'arxiv-latex', 'forum-spam'))} shards", "the data cleanup",
     "Which shards does her plan drop?"),
    (lambda r: f"contamination check against {r.choice(('GSM-Plus', 'MATH-500', 'LiveCodeBench', 'GPQA-diamond'))}", "the eval release",
     "Which benchmark does her plan check contamination against?"),
    (lambda r: f"rebuttal table for Reviewer {r.choice((1, 3, 4))}", "the rebuttal", "Which reviewer gets a rebuttal table in her plan?"),
    (lambda r: "merge the {} and {} SFT sets".format(*r.sample(("OpenHermes", "UltraChat", "Tulu-3", "MetaMath"), 2)),
     "the SFT round", "Which SFT sets does her plan merge?"),
    (lambda r: f"profile the MoE all-to-all on {r.choice((2, 4, 8))} nodes", "the MoE slowdown", "What profiling does her plan call for?"),
    (lambda r: f"port the eval harness to vLLM {r.choice(('0.5.4', '0.6.1', '0.6.3'))}", "eval speed", "Which serving stack does her plan port the evals to?"),
    (lambda r: f"train a {r.choice((16, 32, 64))}-expert MoE variant", "the MoE follow-up", "What MoE variant does her plan train?"),
)
GENERIC_STEPS = ("check the loss curves of the overnight runs", "clean up the configs", "write up results for group meeting",
                 "rerun the baseline eval", "update the slides", "look at the throughput regression", "sync with Jonas about the data",
                 "fix the flaky collate test", "prune old checkpoints", "re-plot everything with the same y range")
PLAN_FORMS = ("plan for {about}:\n{numbered}", "ok here's the plan for {about}: first {a}, then {b}, and once that's stable {c}. {d} if there's time",
              "这周的计划（{about}）：\n{numbered}", "todo re {about}: {a} -> {b} -> {c}", "for {about} I think we: {a}; {b}; {c}; and then {d}")


# --- what she pastes (somebody else's words) and the conventions she adopts (hers) ----------------------------

SLACK = (
    "heads up for everyone on the 1B runs: please always use bf16 on the A100s, fp16 keeps overflowing in the attention "
    "softmax. also don't launch more than 4 nodes before 9am, the speech team has the partition reserved until then.",
    "PSA: do NOT run eval jobs on the login node, use gpu-debug. and please always pass --exclusive for multi-node jobs, "
    "two runs sharing a node tanked everyone's throughput yesterday.",
    "reminder that the shared HF cache is read-only now. point HF_HOME at your own scratch dir, and never pip install "
    "into the base env, use a venv. I'll clean up anything left in /shared/tmp on Friday.",
)
SLACK_MORE = (
    "and set NCCL_IB_TIMEOUT={n} in your sbatch files, the fabric has been flaky since the firmware update. ping me if you see hangs",
    "also: checkpoints older than {n} days on /scratch get purged automatically from next week, copy what you need",
    "oh and everyone please fill in the GPU-hours sheet by Thursday, we're at {n}% of the quarter's allocation",
)
REVIEWS = (
    ("The paper studies data mixing for continued pretraining and claims consistent gains on reasoning benchmarks.",
     ("The authors must report variance over at least three seeds; single-seed differences of 0.5 points are within noise.",
      "Please add a comparison with a simple temperature-sampling baseline.",
      "The decontamination procedure is under-specified. Describe the n-gram size and the matching rule.")),
    ("The submission proposes a curriculum over sequence length and reports faster convergence at 1B scale.",
     ("The compute accounting should include the tokens spent at short lengths; please report results at matched FLOPs.",
      "Ablate the schedule shape: is the gain from the curriculum or simply from the shorter early steps?",
      "The related work misses recent length-extrapolation papers; cite and discuss them.")),
    ("This work analyses loss spikes in mid-size language models and proposes a rewind-and-skip remedy.",
     ("Show that the remedy does not just hide the spikes by skipping hard data; report the skipped token share.",
      "The claims about the optimizer state need evidence beyond one run. Repeat with a second optimizer.",
      "Please release the spike detection code; the threshold choice is not described.")),
)
ABSTRACTS = (
    "Abstract. We study how the composition of the pretraining mixture affects downstream reasoning at small scale. "
    "Training {n} models between 150M and 1.5B parameters, we find that the share of code data predicts math performance "
    "better than the share of math data itself, and that this effect persists after annealing. We release all mixtures.",
    "Abstract. Long-context extension is usually done by rescaling rotary frequencies and briefly continuing pretraining. "
    "We show that {n}% of the gains at 32k tokens come from the data used in the extension phase rather than from the "
    "rescaling method, and propose a simple recipe that matches prior methods at a fraction of the cost.",
    "Abstract. Evaluation of language models on multiple-choice benchmarks is sensitive to prompt format. Across {n} "
    "formats and eight benchmarks we find rank reversals between models in a third of pairwise comparisons, and we "
    "recommend reporting the mean over formats together with its spread.",
)
CRASHES = (
    ("RuntimeError: CUDA error: an illegal memory access was encountered",
     "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."),
    ("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: train.py FAILED",
     "Root Cause (first observed failure): [0] exitcode: -9 (pid: {n})"),
)


def _paste(r: random.Random, kind: int) -> tuple[str, str, str]:
    """(her words before, the pasted text, the agent's answer)."""
    who = r.choice(F_PEOPLE)
    n = str(r.randint(12, 45))
    if kind == 0:
        i = r.randrange(len(SLACK))
        block = (f"{who}  {r.randint(9, 11)}:{r.randint(10, 59)} AM\n{SLACK[i]}\n{who}  {r.randint(9, 11)}:{r.randint(10, 59)} AM\n"
                 + _fill(SLACK_MORE[i], n=n))
        return (r.choice((f"{who} posted this in #lm-infra, does any of it affect us?", f"看看 {who} 发的这个，跟我们有关系吗",
                          f"from {who}, fyi")), block,
                f"That's {who}'s note for the whole group. I checked our current jobs and configs against it; nothing of ours "
                "conflicts right now, and I haven't changed anything. If you want any of it applied to our runs, say so.")
    if kind == 1:
        summary, points = r.choice(REVIEWS)
        block = (f"Reviewer {r.choice((1, 2, 3))} (confidence {r.randint(3, 5)})\nSummary: {summary}\nWeaknesses:\n"
                 + "\n".join(f"{i + 1}. {p}" for i, p in enumerate(points))
                 + f"\nQuestions: How sensitive are the results to the random seed? Score: {r.choice((3, 4, 5, 6))}")
        return (r.choice(("first reviews are in 😩 here's one:", "reviews. ugh. this one:", "审稿意见来了：")), block,
                "Point 1 is mostly cheap: we have most of what it asks for in runs that already exist. Point 2 needs new runs, "
                "point 3 is writing. Want me to list the runs a rebuttal would need?")
    if kind == 2:
        block = (f"[hpc-announce] Scheduled maintenance, {r.choice(('Tuesday', 'Wednesday', 'Thursday'))} 06:00-14:00\n"
                 "All jobs on gpu-a100 and gpu-h100 will be drained before the window; pending jobs stay queued. Users must "
                 "checkpoint long jobs before 05:30. Do not store checkpoints under $HOME, it is not backed up during the window. "
                 f"The scratch purge policy changes to {n} days after the maintenance.\n-- the HPC team")
        return (r.choice(("fyi from the cluster admins:", "admins again:")), block,
                "Noted. I'll make sure the running jobs have a recent checkpoint before the window and check scratch ages after it.")
    if kind == 3:
        topic, col = r.choice((("Rotary base sweep", "niah@16k"), ("Warmup length sweep", "loss@5k"), ("Tokenizer comparison", "bpb")))
        rows = "\n".join(f"| {_run(r)} | {r.uniform(2.1, 2.6):.3f} | {r.uniform(30, 60):.1f} |" for _ in range(r.randint(4, 7)))
        block = f"W&B report: \"{topic}\" by {who}\n| run | val/loss | {col} |\n|---|---|---|\n{rows}\nConclusion: see the discussion thread."
        return (f"{who}'s report, compare with ours?", block,
                f"Same direction as ours. {who}'s val/loss comes from a different eval set, so only the last column is comparable.")
    if kind == 4:
        first, last = r.choice(CRASHES)
        tb = "\n".join(f"  {x}" for x in _traceback(r, 5)[1:])
        block = f"Traceback (most recent call last):\n{tb}\n{first}\n{_fill(last, n=str(r.randint(10000, 99999)))}"
        return (f"{who}'s run died with this, seen it before?", block,
                "A kernel reading out of bounds or the OOM killer, from the last lines. Rerunning with CUDA_LAUNCH_BLOCKING=1, or "
                f"checking dmesg on that node, would tell which. It's {who}'s run, so I haven't touched anything.")
    if kind == 5:
        block = "\n".join([f"# {who}'s config for the 3B, for comparison"] + _yaml_lines(r)[7:30] + ["# keep gradient_clip_val at 1.0, always"])
        return (f"here's {who}'s config", block,
                f"Differences from ours: {who} uses a different warmup length and micro batch, everything else matches.")
    block = _fill(r.choice(ABSTRACTS), n=n)
    return (r.choice((f"abstract of the paper {who} sent:", "this abstract, relevant?", "看到这篇，感觉跟我们的 ablation 有关")), block,
            "Relevant to our ablations: their main claim is something our proxy runs could check directly.")


CONVENTION_RULES = (
    "Every experiment gets a one-line hypothesis in the wandb notes field before launch.",
    "Never delete another person's checkpoints; ask in #lm-infra first.",
    "Numbers that go into a paper are run twice, on two different nodes.",
    "Configs live in the repo; no untracked override files.",
    "A run refers to a data mix by its tag, never by a path.",
    "Tag the commit you launched from if a run goes longer than a day.",
    "Report the stderr next to every benchmark number.",
    "Debug jobs go to gpu-debug, one node, thirty minutes at most.",
    "No new launches in the last two hours before a deadline.",
    "Every figure in a shared doc says which runs it shows.",
)


def _conventions(r: random.Random, rule: str, second: bool) -> str:
    rules = list(CONVENTION_RULES)
    r.shuffle(rules)
    rules = rules[: r.randint(6, 9)]
    rules.insert(len(rules) // 2, rule[0].upper() + rule[1:] + ".")
    title = "LM group — experiment conventions addendum (evals)" if second else f"LM group — experiment conventions (rev {r.randint(3, 9)})"
    body = "\n".join(f"{i + 1}. {x}" for i, x in enumerate(rules))
    frame = r.choice(("ok, pasting our lab's experiment conventions. these are our rules now, follow them from here on:",
                      "这是我们组的实验规范，以后都按这个来：", "the lab finally wrote down its conventions — adopt all of these please:"))
    return f"{frame}\n\n# {title}\n\n{body}\n\nquestions go to the group channel, not to individuals."


# --- episodes that plant ------------------------------------------------------------------------------------

def _draw(b: _Builder, makers: tuple[Callable[[random.Random], Spec], ...], start: int, keys: tuple[str, ...] = ("value",)) -> Spec:
    """A spec from the makers (from ``start`` on, the ones not used yet first) whose planted strings are new to the
    session."""
    order = [makers[(start + t) % len(makers)] for t in range(len(makers))]
    pool = [m for m in order if not any(m is u for u in b.used)] + order
    for t in range(80):
        maker = pool[t % len(pool)]
        spec = maker(b.rng)
        strings = [spec[k] for k in keys]
        if len(set(strings)) == len(strings) and not any(s in c or c in s for s in strings for c in b.claimed) \
                and not any(x in y for x in strings for y in strings if x is not y):
            b.claimed += strings
            b.used.append(maker)
            return spec
    raise RuntimeError("planted vocabulary exhausted")


def _hers(r: random.Random, template: str, **slots: str) -> str:
    """Her message from a template: typos and terseness go in before the planted values, never into them."""
    return _fill(_her(r, template), **slots)


def _emit_instruction(b: _Builder, spec: Spec, style: str, doc: int) -> None:
    r, v = b.rng, spec["value"]
    rule, want = _fill(spec["rule"], v=v), _fill(spec["want"], v=v)
    if doc:
        at = b.user(_conventions(r, rule, doc == 2))
        b.say("Adopted — I'll follow these from now on. The ones that change my day-to-day work most: the wandb notes "
              "hypothesis before each launch, stderr next to every number, and debug jobs on gpu-debug only.")
        b.fact("instruction", v, at, spec["query"])
        return
    if style == "self" and "me" not in spec:
        style = "casual"
    template = r.choice(STYLES[style])
    ack = _fill(r.choice(ACKS), want=want, rule=rule)
    pieces = {k: spec[k] for k in ("rule", "want", "zh", "why", "me") if k in spec}
    if style == "trailing":
        c = _ctx(r)
        request, kind = r.choice(REQUESTS)
        text = _fill(_typo(r, _fill(template, request=_fill(request, **c), **pieces), 0.06), v=v)
        at = b.user(text)
        b.step(*_filler_step(r, kind, c), note=NOTES[kind])
        b.say(_fill(SUMMARIES[kind], **c) + "\n\nAnd noted for the future: " + rule + ".")
    else:
        at = b.user(_hers(r, _fill(template, **pieces), v=v))
        b.say(ack)
    b.fact("instruction", v, at, spec["query"])


def _emit_said(b: _Builder, spec: Spec, slot: dict[str, Any], decision: bool) -> None:
    """Where she first says what she will later correct or revise."""
    r, s = b.rng, spec["stale"]
    if decision:
        at = b.user(_hers(r, r.choice(DECIDE), v=s, topic=spec["topic"], zh=spec["zh"]))
    else:
        at = b.user(_hers(r, r.choice(spec["said"]), s=s))
    slot["stale_index"] = at
    if b.roomy and r.random() < 0.5:
        c = _ctx(r)
        b.step(*_filler_step(r, "grep", c), note="Checking where that is set today.")
    b.say(r.choice((f"OK — {s}.", f"Got it, {s}.", "Sounds good, I'll go with that.", "好的。")))


def _emit_correction(b: _Builder, spec: Spec, slot: dict[str, Any]) -> None:
    r, v, s = b.rng, spec["value"], spec["stale"]
    at = b.user(_hers(r, r.choice(spec["fix"]), v=v, s=s))
    b.say(r.choice((f"Thanks — switching to {v}.", f"Fixed: {v} from now on.", "Got it, corrected.", "好的，已经改过来了。")))
    b.fact("correction", v, at, spec["query"], stale=s, stale_index=slot["stale_index"])


def _emit_decision(b: _Builder, spec: Spec, slot: dict[str, Any] | None) -> None:
    r, v = b.rng, spec["value"]
    if slot is None:
        at = b.user(_hers(r, r.choice(DECIDE), v=v, topic=spec["topic"], zh=spec["zh"]))
        b.say(r.choice((f"Sounds good — {v} {spec['topic']}.", "OK, I'll set the configs up that way.", "Makes sense given the curves.")))
        b.fact("decision", v, at, spec["query"])
        return
    at = b.user(_hers(r, r.choice(REVISE), v=v, s=spec["stale"], topic=spec["topic"], zh=spec["zh"]))
    b.say(r.choice((f"OK, {v} then. I'll update the configs.", "Switched. The earlier choice is gone from the configs.")))
    b.fact("decision", v, at, spec["query"], stale=spec["stale"], stale_index=slot["stale_index"])


def _error_output(r: random.Random, spec: Spec, chars: int, failing: bool) -> str:
    line = spec["line"] if failing else None
    if spec["log"] == "pytest":
        return _pytest(r, chars, spec["target"], failure=line)
    if spec["log"] == "pip":
        return _pip(r, min(chars, 7000), conflict=line)
    if not failing:
        if spec["tool"] == "python":
            return spec["clean"]
        if "--cfg job" in spec["args"].get("command", ""):
            return _yaml_dump(r, min(chars, 4000))
        return _train_log(r, chars)
    if spec["tool"] == "python":
        code = spec["args"]["code"].splitlines()
        trace = ["Traceback (most recent call last):", f'  File "<ipython-input-{r.randint(5, 90)}>", line {len(code)}, in <module>',
                 f"    {code[-1].strip()}"] + [x for f in spec.get("frames", PY_FRAMES) for x in f]
        return "\n".join(trace + [line] + spec["tail"])
    head = _train_log(r, chars * 2 // 3 if spec["log"] == "train" else 500)
    trace = _traceback(r, r.randint(3, 8)) if spec.get("trace", True) else []
    return "\n".join([head] + trace + [line] + spec["tail"])


def _emit_error(b: _Builder, spec: Spec, slot: dict[str, Any] | None) -> None:
    r = b.rng
    b.user(_her(r, spec["ask"]))
    _, at = b.step(spec["tool"], spec["args"], partial(_error_output, r, spec, failing=True),
                   note=r.choice(("Running it.", "Launching.", "")))
    b.say(r.choice((f"It failed:\n\n{spec['line']}\n\nLooking at the trace, this is not a flake.",
                    "Failed — see the last lines of the output. I'll dig into it once you say how you want to proceed.",
                    f"Error at the end of the run: `{spec['line']}`.")))
    if slot is None:
        b.fact("error", spec["line"], at, spec["query"])
    else:
        slot.update(spec=spec, index=at)


def _emit_resolution(b: _Builder, slot: dict[str, Any]) -> None:
    r, spec = b.rng, slot["spec"]
    b.user(r.choice((f"I {spec['fix']}, rerun it", f"ok, {spec['fix']} — try again pls", "修好了，再跑一次", "rerun the thing that failed earlier")))
    if b.roomy:
        c = _ctx(r)
        b.step(*_filler_step(r, "git", c), note="Checking what changed first.")
    _, done = b.step(spec["tool"], spec["args"], partial(_error_output, r, spec, failing=False), note="Same command as before.")
    b.say(r.choice(("Clean this time — no error in the output.", "It goes through now.", "Passes now. 👍")))
    b.fact("error", spec["line"], slot["index"], spec["query"], resolved=done)


def _emit_file(b: _Builder, spec: Spec) -> None:
    r, path = b.rng, spec["value"]
    b.user(_her(r, spec["ask"]))
    if b.roomy and r.random() < 0.6:
        c = _ctx(r)
        b.step(*_filler_step(r, r.choice(("grep", "read_py")), c), note="Looking at how the neighbours are written first.")
    if spec["how"] == "write":
        content = _file_content(r, path)
        at, _ = b.step("write_file", {"path": path, "content": content}, f"Wrote {len(content.encode())} bytes to {path}.",
                       note=r.choice(("Writing it.", "Here's a first version.", "")))
    else:
        old = r.choice(CODE_LINES)
        at, _ = b.step("edit_file", {"path": path, "old_str": old, "new_str": old + "  # clamped, see PR"},
                       f"Edited {path}: 1 replacement.", note="Patching it.")
    b.say(r.choice((f"Done: {path}. It follows the same structure as the existing modules.",
                    "Done. I kept it small; it has no new dependencies.", f"Written to {path}; want a test for it too?")))
    b.fact("file", path, at, spec["query"])


def _file_spec(r: random.Random, entry: tuple[str, str, str]) -> Spec:
    path, how, ask = entry
    path = path.replace("{n}", r.choice(("", f"_{r.randint(2, 99):02d}", "_v2")))
    what = ask.split(" that ", 1)[-1] if " that " in ask else ask
    return {"value": path, "how": how, "ask": ask, "query": f"Which file did the agent {'write' if how == 'write' else 'edit'} for: {what}?"}


def _emit_identifier(b: _Builder, spec: Spec) -> None:
    r, v = b.rng, spec["value"]
    if "say" in spec:
        at = b.user(_hers(r, r.choice(spec["say"]), v=v))
        b.say(r.choice((f"Noted, {v}.", "OK, I'll use that one.", "Got it.")))
    else:
        b.user(_her(r, spec["ask"]))
        lines = spec["lines"]
        head = spec["tool"] == "run_shell" and "wandb" in lines[0]

        def output(chars: int) -> str:
            return "\n".join(([_train_log(r, chars // 2)] if head else []) + lines)
        _, at = b.step(spec["tool"], spec["args"], output, note=r.choice(("On it.", "")))
        b.say(r.choice((f"Done — {v}.", "Done; the id is in the output above.", f"That's {v}.")))
    b.fact("identifier", v, at, spec["query"])


def _finding_output(r: random.Random, spec: Spec, chars: int) -> str:
    out, line = spec["out"], spec["line"]
    if out == "yaml":
        return _yaml_dump(r, min(chars, 5000), extra=line)
    if out == "prof":
        return _profiler(r, 16, top=spec["value"])
    if out == "eval":
        return _lm_eval(r, r.sample(F_TASKS, 8), planted=(spec["task"], spec["value"]))
    body = {"train": _train_log, "data": _data_log, "notebook": _notebook, "squeue": _squeue}[out](r, chars).splitlines()
    body.insert(r.randint(len(body) // 3, max(len(body) // 3, len(body) - 2)), line)
    return "\n".join(body)


def _emit_finding(b: _Builder, spec: Spec) -> None:
    r, v = b.rng, spec["value"]
    b.user(_her(r, spec["ask"]))
    _, at = b.step(spec["tool"], spec["args"], partial(_finding_output, r, spec), note=r.choice(("Checking.", "Running it.", "")))
    b.say(_fill(spec["say"], v=v) + r.choice(("", " Everything else in the output looks as expected.",
                                                " That's the one thing in there that stands out.")))
    b.fact("finding", v, at, spec["query"])


def _emit_plan(b: _Builder, spec: Spec) -> None:
    r, v = b.rng, spec["value"]
    steps = r.sample(GENERIC_STEPS, 3)
    steps.insert(r.randint(0, 2), v)
    form = r.choice(PLAN_FORMS)
    numbered = "\n".join(f"{i + 1}. {s}" for i, s in enumerate(steps))
    at = b.user(_fill(_her(r, form), about=spec["about"], numbered=numbered, a=steps[0], b=steps[1], c=steps[2], d=steps[3]))
    b.say(r.choice(("Sounds like a plan. I'll start on the first item and check in after each one.",
                    "OK. I'll keep this list and tick things off as we go.", "好的，按这个顺序来。")))
    b.fact("plan", v, at, spec["query"])


def _emit_paste(b: _Builder, kind: int) -> None:
    r = b.rng
    before, block, answer = _paste(r, kind)
    at = b.user(f"{before}\n\n{block}" if r.random() < 0.75 else f"{block}\n\n{before}")
    b.pasted.append((at, block))
    if b.roomy and r.random() < 0.4:
        c = _ctx(r)
        b.step(*_filler_step(r, "read_yaml", c), note="Comparing with our config.")
    b.say(answer)


SYSTEM = (
    "You are a research engineering agent working with Mei, an ML engineer, in her repository /home/mei/lm (PyTorch, "
    "Lightning, Hydra configs) and on the lab's Slurm cluster. Tools: read_file(path), write_file(path, content), "
    "edit_file(path, old_str, new_str), run_shell(command) on the login node or inside an allocation with srun, "
    "search_code(pattern, path), fetch_url(url), python(code) in a persistent notebook kernel with a GPU. Be concise, "
    "show the output that matters, never cancel other users' jobs, and ask before launching anything that costs more "
    "than one node-hour."
)


# --- the session ----------------------------------------------------------------------------------------------

@dataclass(order=True)
class _Event:
    pos: float
    order: int
    emit: Callable[[_Builder], None] = field(compare=False)


def _plan_maker(entry: tuple[Callable[[random.Random], str], str, str]) -> Callable[[random.Random], Spec]:
    def make(r: random.Random) -> Spec:
        return {"value": entry[0](r), "about": entry[1], "query": entry[2]}
    return make


PLANS = tuple(_plan_maker(e) for e in PLAN_STEPS)
FILE_SPECS = tuple(partial(_file_spec, entry=e) for e in FILES)
FINDINGS = tuple(partial(_finding, kind=i) for i in range(9))
IDENT_USER = tuple(partial(_ident_user, kind=i) for i in range(6))
IDENT_TOOL = tuple(partial(_ident_tool, kind=i) for i in range(4))


def _events(b: _Builder) -> list[_Event]:
    """What gets planted where: every kind once per block of eight slots over SPAN, stale values and first choices
    earlier (often far earlier), reruns that resolve errors later, and pasted material anywhere."""
    r, n = b.rng, b.n
    k = per_kind(n)
    lo, hi = SPAN[0] * n, SPAN[1] * n
    kinds: list[str] = []
    for block in range(k):
        ks = list(KINDS)
        r.shuffle(ks)
        if block < 2:
            ks.remove("instruction")
            ks.insert(0, "instruction")
        kinds += ks
    total = len(kinds)
    slots = [lo + (hi - lo) * (j + r.uniform(0.2, 0.8)) / total for j in range(total)]
    resolved = set(r.sample(range(k), k // 2)) if k >= 2 else set()
    revised = set(r.sample(range(k), max(1, k // 3))) if k >= 2 else set()
    docs = {1: 1} if k >= 2 else {}
    if k >= 8:
        docs[k // 2 + 1] = 2
    styles = list(STYLES)
    r.shuffle(styles)
    carriers = ("user", "tool") if r.random() < 0.5 else ("tool", "user")
    start = {kind: r.randrange(100) for kind in KINDS}
    seen = dict.fromkeys(KINDS, 0)
    plain = 0  # instructions said in her own words so far (not in a conventions document)
    fixable = tuple(m for m in ERRORS if m(random.Random(0))["fixable"])
    events: list[_Event] = []

    def at(pos: float, emit: Callable[[_Builder], None]) -> None:
        events.append(_Event(pos, len(events), emit))

    def earlier(pos: float) -> float:
        room = pos - lo - 3
        if room <= 1:
            return lo
        return lo + r.uniform(0.0, 0.5) * room if r.random() < 0.65 else pos - 3 - r.uniform(0.05, 0.3) * room

    for pos, kind in zip(slots, kinds):
        j = seen[kind]
        seen[kind] += 1
        s = start[kind] + j
        if kind == "instruction":
            spec = _draw(b, INSTRUCTIONS, s)
            style = styles[plain % len(styles)]
            plain += j not in docs
            at(pos, partial(_emit_instruction, spec=spec, style=style, doc=docs.get(j, 0)))
        elif kind == "correction":
            spec = _draw(b, CORRECTIONS, s, ("value", "stale"))
            slot: dict[str, Any] = {}
            at(earlier(pos), partial(_emit_said, spec=spec, slot=slot, decision=False))
            at(pos, partial(_emit_correction, spec=spec, slot=slot))
        elif kind == "decision":
            if j in revised:
                spec = _draw(b, DECISIONS, s, ("value", "stale"))
                slot = {}
                at(earlier(pos), partial(_emit_said, spec=spec, slot=slot, decision=True))
                at(pos, partial(_emit_decision, spec=spec, slot=slot))
            else:
                at(pos, partial(_emit_decision, spec=_draw(b, DECISIONS, s), slot=None))
        elif kind == "error":
            if j in resolved:
                spec = _draw(b, fixable, s, ("line",))
                slot = {}
                at(pos, partial(_emit_error, spec=spec, slot=slot))
                at(min(pos + 4 + r.uniform(0.01, 0.08) * n, 0.93 * n), partial(_emit_resolution, slot=slot))
            else:
                at(pos, partial(_emit_error, spec=_draw(b, ERRORS, s, ("line",)), slot=None))
        elif kind == "file":
            at(pos, partial(_emit_file, spec=_draw(b, FILE_SPECS, s)))
        elif kind == "identifier":
            makers = IDENT_USER if carriers[j % 2] == "user" else IDENT_TOOL
            at(pos, partial(_emit_identifier, spec=_draw(b, makers, s)))
        elif kind == "finding":
            at(pos, partial(_emit_finding, spec=_draw(b, FINDINGS, s)))
        else:
            at(pos, partial(_emit_plan, spec=_draw(b, PLANS, s)))
    kinds_pasted = list(range(7))
    r.shuffle(kinds_pasted)
    for i in range(max(1, n // 150)):
        at(r.uniform(0.03, 0.9) * n, partial(_emit_paste, kind=kinds_pasted[i % 7]))
    return sorted(events)


def _fill_until(b: _Builder, pos: float) -> None:
    while (gap := int(pos - b.at)) >= 2:
        size = _filler_length(b.rng)
        _filler(b, min(max(size, 4) if b.owed else size, gap))


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more) with ``per_kind(messages)`` facts of each kind."""
    if messages < 60:
        raise ValueError("gen_mlops makes sessions of 60 messages or more")
    rng = random.Random(seed)
    b = _Builder(rng, messages)
    b.add({"role": "system", "content": SYSTEM})
    for event in _events(b):
        _fill_until(b, event.pos)
        event.emit(b)
    while (left := messages - 1 - b.at) > 0:
        if left == 1:
            b.say("One more thing: everything you asked for today is done, and nothing is running that needs watching.")
            break
        size = min(_filler_length(rng), left)
        _filler(b, size + 1 if left - size == 1 else size)
    if b.at != messages - 1:
        raise RuntimeError(f"planted episodes overran a {messages}-message session")
    c = _ctx(rng)
    b.user(_her(rng, _fill(rng.choice(REQUESTS)[0], **c)))
    b.scrub()
    return Session(messages=b.messages, facts=sorted(b.facts, key=lambda f: (f.index, f.kind)), seed=seed, pasted=b.pasted)
