"""A senior developer and a Claude-Code-style agent on a polyglot monorepo, with planted facts, for the fidelity bench.

    from gen_monorepo import make_session
    session = make_session(seed=1, messages=400)    # about 620k characters, ~150k tokens
    session = make_session(seed=1, messages=3000)   # about 4.7M characters

Who talks: Jonas, a senior developer in a Berlin team, works on "hafen", a monorepo with Go services under
``services/`` (orders, billing, gateway, notify, inventory, auth), a TypeScript/React frontend under ``web/`` (pnpm
workspaces), a Rust CLI under ``tools/hafenctl`` and Terraform under ``infra/``. He writes terse lowercase English with
typos, now and then a German phrase or a whole German line. The agent calls ``Read``, ``Edit``, ``Write``, ``Bash``,
``Grep``, ``Glob``, ``TodoWrite`` and ``WebFetch`` with Claude Code's argument names, runs loops of several calls per
turn (5 to 15 are common in a long session), and answers in its own words: sometimes quoting a line, sometimes only
"see above" or "that's the one". Results are long: ``go test`` runs with ``--- FAIL:`` lines and panics, vitest and
jest failures with ``●`` and ``expect(received).toBe(expected)``, ``cargo test``/``clippy`` with ``error[E0502]``,
``tsc --noEmit``, golangci-lint, ``terraform plan``, git log/diff/status, ``gh pr view`` and ``gh run view
--log-failed``, Grep hits as ``path:line:``, files read with line numbers, ``go mod graph`` and ``pnpm why``. They are
full of look-alikes of the planted values (other ports, test names, versions, clusters, PR numbers, shas).

What he pastes (``Session.pasted``, exactly as it sits in his message, always beside words of his own): a CI log, a
Sentry alert, a colleague's Slack message with their asks, a colleague's PR review, a stack trace from prod, a section
of an RFC, a ``package.json``, a table of benchmark results. The colleagues' imperatives are theirs, not his rules;
once in a while he adopts one of a reviewer's points in his own words ("make that a rule: ..."), and only those words
carry the planted rule. Once (twice from ten rules on) he pastes the team's CONTRIBUTING.md or an accepted ADR and says
to follow it: that document is his, not in ``pasted``, and one rule in the middle of it is a planted instruction.

Facts (``Session.facts``), ``per_kind(messages)`` of each kind: 1 at 60 messages, 6 at 400, 12 at 3000 and beyond.

- instruction: a standing rule of his, said directly, indirectly, as a preference, as a condition, in German, in the
  second paragraph of a long message, after a paste, adopted from a review, or inside an adopted document; the value
  is its distinctive piece (a port, a flag, a path, a version, a person to ask).
- correction: a value he gave earlier (``stale``, said by him at ``stale_index``) corrected casually, mostly far
  away, often mid-message, half of them or more near misses ("gke-stg-euw3-41 not gke-stg-euw3-14").
- decision: a library or approach he picks; about a third revise an earlier pick of his, which is the ``stale``.
- plan: the distinctive step of a plan he lays out in prose ("first ..., then ..., and last ...").
- file: the path of a new file the agent writes, in that message's only tool call.
- finding: a piece of one tool-output line that answers what he asked (a root cause in a CI log, a value in a
  config, the slowest test, the version a dependency resolved to).
- error: a whole line of a run's output (a ``--- FAIL:`` line, a ``panic:`` line, an ``error[E0382]`` line, a TS
  error line, a lint line). Half (rounded down) are ``resolved`` by a later run of the very same command that no
  longer prints it, some at once and some later on his word.
- identifier: a PR number, commit sha, Sentry issue id, Jira key, CI run id or request id, said by him and printed
  by the tool the agent runs next, or printed by a tool first.

The session opens with his "get your bearings" turn (Glob, Read, Grep, WebFetch and Edit side by side), so every
tool is used at any size; routine turns (tests, lint, reads, renames, git, dependency questions, docs) fill the rest,
with failing routine tests, other ports, versions, clusters, PR numbers and shas as look-alikes, and routine commands
now and then printing what they printed before. In a short session the episodes' loops are cut, and some episodes
drop a call that is not needed (a correction acknowledged without redoing the work), until routine work keeps a fifth
of the room.

Planted values come from a vocabulary the filler never draws from, and every piece of filler is checked against them,
so a value found in a compacted prompt was kept, not re-invented. Facts sit between 4.5% of the session (and after the
opening turn) and 84%; his first two rules come early. A session far off 1,560 characters a message (a short one,
with few outputs to size) is drawn again aiming off. Same seed and size, same bytes; the global random state is never
touched.
"""

from __future__ import annotations

import bisect
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
KINDS = ("instruction", "correction", "decision", "plan", "file", "finding", "error", "identifier")
TOOLS = ("Read", "Edit", "Write", "Bash", "Grep", "Glob", "TodoWrite", "WebFetch")
PER_MESSAGE = 1560  # characters a message on average: 400 messages ~ 620k, 3000 ~ 4.7M
MIN_MESSAGES = 60
ROOT = "/home/jonas/src/hafen"
MODULE = "github.com/hafenlabs/hafen"
T = TypeVar("T")


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 12 at 3000, linearly in between, 12 from then on."""
    if messages <= 400:
        return max(1, round(1 + 5 * (messages - 60) / 340))
    return min(12, round(6 + 6 * (messages - 400) / 2600))


# --- small helpers -------------------------------------------------------------------------------------------------
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
B32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def _pick(rng: random.Random, items: Sequence[T]) -> T:
    return items[rng.randrange(len(items))]


def _hex(rng: random.Random, digits: int) -> str:
    return f"{rng.getrandbits(4 * digits):0{digits}x}"


def _b32(rng: random.Random, n: int) -> str:
    return "".join(B32[rng.randrange(32)] for _ in range(n))


def _numbered(lines: Sequence[str], start: int = 1) -> str:
    """A file as Read prints it: right-aligned line numbers, a tab, the line."""
    return "\n".join(f"{i:>6}\t{line}" for i, line in enumerate(lines, start))


def _grow(size: int, head: list[str], body: Callable[[], str], foot: list[str] | None = None) -> str:
    """Head lines, body lines until about ``size`` characters, foot lines."""
    out, n = list(head), sum(len(x) + 1 for x in head)
    foot = foot or []
    limit = size - sum(len(x) + 1 for x in foot)
    while n < limit:
        line = body()
        out.append(line)
        n += len(line) + 1
    return "\n".join(out + foot)


def _typo(rng: random.Random, text: str, rate: float = 0.05) -> str:
    """His typing: now and then two letters swapped, one dropped or doubled, in plain lowercase words only."""
    words = text.split(" ")
    for i, w in enumerate(words):
        if len(w) > 3 and w.isalpha() and w.islower() and rng.random() < rate:
            j, r = rng.randrange(len(w) - 1), rng.random()
            words[i] = (w[:j] + w[j + 1] + w[j] + w[j + 2:] if r < 0.5 else w[:j] + w[j + 1:] if r < 0.8
                        else w[:j] + w[j] + w[j:])
    return " ".join(words)


def _put(template: str, **values: str) -> str:
    """A template's {slots} filled (after typos, so values stay exact)."""
    for k, v in values.items():
        template = template.replace("{" + k + "}", v)
    return template


class _Dirty(Exception):
    """A draw put a planted value where it must not be; it is drawn again."""


# --- the repository ------------------------------------------------------------------------------------------------
SVCS = ("orders", "billing", "gateway", "notify", "inventory", "auth")
GO_FILES = {
    "orders": ("services/orders/internal/http/handler.go", "services/orders/internal/http/handler_test.go",
               "services/orders/internal/store/pg.go", "services/orders/internal/store/pg_test.go",
               "services/orders/internal/domain/order.go", "services/orders/internal/domain/state.go",
               "services/orders/internal/config/config.go", "services/orders/cmd/orders/main.go"),
    "billing": ("services/billing/internal/invoice/invoice.go", "services/billing/internal/invoice/invoice_test.go",
                "services/billing/internal/invoice/pdf.go", "services/billing/internal/ledger/entry.go",
                "services/billing/internal/ledger/entry_test.go", "services/billing/internal/psp/client.go",
                "services/billing/cmd/billing/main.go"),
    "gateway": ("services/gateway/internal/proxy/proxy.go", "services/gateway/internal/authn/jwt.go",
                "services/gateway/internal/authn/jwt_test.go", "services/gateway/internal/ratelimit/limiter.go",
                "services/gateway/cmd/gateway/main.go"),
    "notify": ("services/notify/internal/email/sender.go", "services/notify/internal/webhook/client.go",
               "services/notify/internal/webhook/client_test.go", "services/notify/cmd/notify/main.go"),
    "inventory": ("services/inventory/internal/stock/reserve.go", "services/inventory/internal/stock/reserve_test.go",
                  "services/inventory/internal/stock/level.go"),
    "auth": ("services/auth/internal/session/store.go", "services/auth/internal/session/store_test.go"),
}
LIB_FILES = ("libs/go/pgutil/pool.go", "libs/go/otelx/tracer.go", "libs/go/httpx/client.go")
TS_FILES = ("web/src/features/orders/OrderList.tsx", "web/src/features/orders/OrderDetail.tsx",
            "web/src/features/orders/__tests__/OrderList.test.tsx", "web/src/features/invoices/InvoiceTable.tsx",
            "web/src/features/invoices/__tests__/InvoiceTable.test.tsx", "web/src/features/settings/ApiKeys.tsx",
            "web/src/hooks/useOrders.ts", "web/src/hooks/usePagination.ts", "web/src/lib/api.ts", "web/src/lib/format.ts",
            "web/src/lib/__tests__/format.test.ts", "web/src/routes/root.tsx", "web/packages/ui/src/Button.tsx",
            "web/packages/ui/src/Table.tsx", "web/packages/ui/src/Badge.tsx", "web/packages/api-client/src/client.ts",
            "web/packages/api-client/src/__tests__/client.test.ts")
RS_FILES = ("tools/hafenctl/src/main.rs", "tools/hafenctl/src/cmd/sync.rs", "tools/hafenctl/src/cmd/deploy.rs",
            "tools/hafenctl/src/cmd/db.rs", "tools/hafenctl/src/config.rs", "tools/hafenctl/src/api.rs",
            "tools/hafenctl/tests/cli.rs")
TF_FILES = ("infra/envs/staging/main.tf", "infra/envs/staging/variables.tf", "infra/envs/prod/main.tf",
            "infra/modules/gke/main.tf", "infra/modules/cloudsql/main.tf", "infra/modules/pubsub/main.tf")
CONF_FILES = ("go.work", "Makefile", ".golangci.yml", "web/package.json", "tools/hafenctl/Cargo.toml", "docker-compose.yml",
              ".github/workflows/ci.yml", "services/orders/config/staging.yaml", "services/billing/config/staging.yaml")
ALL_GO = tuple(f for fs in GO_FILES.values() for f in fs) + LIB_FILES
TOPIC_FILES = {"go": ALL_GO, "web": TS_FILES, "rust": RS_FILES, "infra": TF_FILES}

GO_NOUNS = {"orders": ("Order", "LineItem", "OrderStore", "StateMachine", "Handler"),
            "billing": ("Invoice", "LedgerEntry", "PSPClient", "PDFRenderer", "TaxLine"),
            "gateway": ("Proxy", "JWTVerifier", "Limiter", "Route"),
            "notify": ("Sender", "WebhookClient", "Delivery", "Template"),
            "inventory": ("Reservation", "StockLevel", "Warehouse"),
            "auth": ("SessionStore", "Session", "Cookie"), "libs": ("Pool", "Tracer", "Client")}
GO_VERBS = ("Create", "Get", "List", "Update", "Cancel", "Validate", "Parse", "Render", "Retry", "Expire", "Reserve",
            "Release", "Sign", "Lookup", "Delete", "Apply")
GO_CONDS = ("", "_NotFound", "_Conflict", "_Timeout", "_EmptyInput", "_Concurrent", "_InvalidTenant", "_Pagination",
            "_HappyPath", "_Retries", "_BadJSON", "_Unauthorized")
TABLES = {"orders": ("orders", "order_items", "order_events"), "billing": ("invoices", "ledger_entries", "payments"),
          "gateway": ("api_keys", "rate_limits"), "notify": ("deliveries", "templates"),
          "inventory": ("stock_levels", "reservations"), "auth": ("sessions", "users"), "libs": ("schema_version",)}
TS_COMPONENTS = ("OrderList", "OrderDetail", "InvoiceTable", "ApiKeys", "Button", "Table", "Badge", "EmptyState",
                 "Pagination", "Toast", "Sidebar", "TenantSwitcher")
TS_CASES = ("renders the empty state", "paginates to the next page", "shows an error toast on 500", "formats EUR amounts",
            "disables submit while saving", "sorts by created date", "filters by status", "keeps the selection on refetch",
            "renders a skeleton while loading", "copies the key to the clipboard", "closes on escape",
            "formats dates in de-DE")
RS_TESTS = ("parses_profile", "rejects_unknown_target", "merges_env_overrides", "prints_table_output", "retries_on_429",
            "reads_token_from_keyring", "dry_run_prints_plan", "sync_skips_unchanged", "deploy_requires_confirmation",
            "db_url_from_env")
FILLER_PEOPLE = (("Lena Hoffmann", "lena-h"), ("Kai Oduya", "kaio"), ("Priya Raman", "priyar"),
                 ("Tobias Lindqvist", "tlindqvist"), ("Emre Yilmaz", "emre-y"), ("Sanne de Vries", "sannedv"),
                 ("Joon Park", "joonp"), ("Mareike Vogt", "mvogt"))
COMMIT_SUBJECTS = ("fix(orders): handle empty cart on checkout", "chore(deps): bump golang.org/x/crypto",
                   "feat(web): invoice filters", "refactor(gateway): split proxy middleware", "test(billing): cover pdf totals",
                   "fix(notify): retry 502 from mailer", "chore: go mod tidy", "feat(hafenctl): --output json for sync",
                   "ci: cache pnpm store", "fix(inventory): release reservation on cancel", "docs: update local setup",
                   "feat(orders): expose fulfilment status", "fix(web): tenant switcher flicker", "chore(infra): bump google provider",
                   "refactor(auth): session store interface", "fix(billing): rounding on tax lines", "build: pin buf to 1.30")
GO_DEPS = (("github.com/jackc/pgx/v5", ("v5.5.4", "v5.5.5", "v5.6.0")), ("github.com/go-chi/chi/v5", ("v5.0.12", "v5.1.0")),
           ("go.opentelemetry.io/otel", ("v1.24.0", "v1.26.0", "v1.28.0")), ("google.golang.org/grpc", ("v1.62.1", "v1.64.0")),
           ("golang.org/x/sync", ("v0.6.0", "v0.7.0")), ("github.com/stretchr/testify", ("v1.8.4", "v1.9.0")),
           ("golang.org/x/crypto", ("v0.21.0", "v0.23.0", "v0.24.0")), ("github.com/redis/go-redis/v9", ("v9.5.1", "v9.5.3")),
           ("google.golang.org/protobuf", ("v1.33.0", "v1.34.1")), ("golang.org/x/text", ("v0.14.0", "v0.15.0")),
           ("github.com/google/uuid", ("v1.6.0",)), ("golang.org/x/net", ("v0.20.0", "v0.21.0", "v0.22.0")))
NPM_DEPS = (("react", "18.3.1"), ("react-dom", "18.3.1"), ("react-router-dom", "6.23.1"), ("vite", "5.2.11"),
            ("vitest", "1.6.0"), ("typescript", "5.4.5"), ("@testing-library/react", "15.0.7"), ("eslint", "8.57.0"),
            ("prettier", "3.2.5"), ("clsx", "2.1.1"), ("msw", "2.3.0"), ("jsdom", "24.0.0"), ("@types/react", "18.3.2"),
            ("jest", "29.7.0"), ("ts-jest", "29.1.2"), ("@vitejs/plugin-react", "4.2.1"), ("recharts", "2.12.7"))
CRATES = (("clap", "4.5.4"), ("serde", "1.0.203"), ("serde_json", "1.0.117"), ("tokio", "1.37.0"), ("anyhow", "1.0.86"),
          ("tracing", "0.1.40"), ("toml", "0.8.13"), ("dirs", "5.0.1"), ("comfy-table", "7.1.1"), ("keyring", "2.3.3"),
          ("proc-macro2", "1.0.85"), ("syn", "2.0.66"), ("libc", "0.2.155"), ("indexmap", "2.2.6"), ("hashbrown", "0.14.5"))
PORTS = (5432, 6379, 8080, 8081, 8082, 8090, 9090, 4317, 4318, 3000, 5173, 9000, 16686, 8025, 2345)
CLUSTERS = ("gke-prod-euw3-01", "gke-prod-euw3-02", "gke-dev-euw1-01", "kind-hafen")
BRANCHES = ("main", "feat/invoice-filters", "fix/empty-cart", "chore/bump-otel", "jb/gateway-split", "feat/hafenctl-json",
            "fix/tenant-switcher", "release/23.48")


def _ts_name(rng: random.Random) -> str:
    return _pick(rng, TS_COMPONENTS)


def _go_test_name(rng: random.Random, svc: str) -> str:
    return f"Test{_pick(rng, GO_NOUNS[svc])}_{_pick(rng, GO_VERBS)}{_pick(rng, GO_CONDS)}"


def _svc_of(path: str) -> str:
    return path.split("/")[1] if path.startswith("services/") else "libs"


def _pkg_of(path: str) -> str:
    return f"{MODULE}/{path.rsplit('/', 1)[0]}"


def _sha(rng: random.Random) -> str:
    return _hex(rng, 40)


def _date(rng: random.Random) -> str:
    return (f"{_pick(rng, ('Mon', 'Tue', 'Wed', 'Thu', 'Fri'))} {_pick(rng, ('Mar', 'Apr', 'May', 'Jun'))} "
            f"{rng.randint(1, 28)} {rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d} 2025 +0200")


def _stamp(rng: random.Random) -> str:
    return (f"2025-0{rng.randint(3, 6)}-{rng.randint(10, 28)}T{rng.randint(6, 20):02d}:{rng.randint(0, 59):02d}:"
            f"{rng.randint(0, 59):02d}.{rng.randint(0, 9999999):07d}Z")


# --- file contents -------------------------------------------------------------------------------------------------
def go_lines(rng: random.Random, path: str, n: int) -> list[str]:
    """A Go file of about ``n`` lines: package, imports, then constants, types, methods, handlers or tests."""
    svc = _svc_of(path)
    parts = path.split("/")
    pkg = "main" if "/cmd/" in path else parts[-2]
    test = path.endswith("_test.go")
    nouns, tables = GO_NOUNS[svc], TABLES[svc]
    out = [f"package {pkg}", "", "import ("]
    out += ['\t"context"', '\t"errors"', '\t"fmt"', '\t"net/http"', '\t"time"'] + (['\t"testing"'] if test else [])
    out += ["", f'\t"{MODULE}/libs/go/pgutil"', '\t"github.com/jackc/pgx/v5"'] + (
        ['\t"github.com/stretchr/testify/require"'] if test else ['\t"github.com/go-chi/chi/v5"']) + [")", ""]
    while len(out) < n:
        noun, verb, table = _pick(rng, nouns), _pick(rng, GO_VERBS), _pick(rng, tables)
        kind = rng.random()
        if test:
            name = f"Test{noun}_{verb}{_pick(rng, GO_CONDS)}"
            out += [f"func {name}(t *testing.T) {{", "\tt.Parallel()", "\tctx := context.Background()",
                    f"\tdb := pgutil.TestDB(t, \"{table}\")", "", "\ttests := []struct {", "\t\tname    string",
                    "\t\ttenant  string", "\t\twantErr error", "\t}{"]
            for _ in range(rng.randint(2, 5)):
                out.append(f'\t\t{{name: "{_pick(rng, ("happy path", "unknown tenant", "deleted row", "expired", "duplicate key", "empty"))}", '
                           f'tenant: "t_{_hex(rng, 4)}", wantErr: {_pick(rng, ("nil", "ErrNotFound", "ErrConflict", "context.DeadlineExceeded"))}}},')
            out += ["\t}", "\tfor _, tt := range tests {", "\t\tt.Run(tt.name, func(t *testing.T) {",
                    f"\t\t\tgot, err := New{noun}Store(db).{verb}(ctx, tt.tenant)",
                    "\t\t\trequire.ErrorIs(t, err, tt.wantErr)", "\t\t\tif tt.wantErr == nil {",
                    f"\t\t\t\trequire.Equal(t, {rng.randint(1, 40)}, len(got))", "\t\t\t}", "\t\t})", "\t}", "}", ""]
        elif kind < 0.15:
            out += ["const (", f"\tdefaultPort       = {_pick(rng, PORTS)}",
                    f"\treadHeaderTimeout = {rng.randint(2, 15)} * time.Second",
                    f"\tmaxBodyBytes      = {rng.randint(1, 8)} << 20", f"\tretryAttempts     = {rng.randint(2, 6)}",
                    f"\tpageSize          = {_pick(rng, (20, 25, 50, 100, 250))}", ")", ""]
        elif kind < 0.3:
            out += [f"// {noun} is persisted in {table}.", f"type {noun} struct {{", "\tID        string    `json:\"id\"`",
                    "\tTenantID  string    `json:\"tenant_id\"`", f"\tStatus    {noun}Status `json:\"status\"`",
                    "\tAmount    int64     `json:\"amount_minor\"`", "\tCreatedAt time.Time `json:\"created_at\"`",
                    "\tUpdatedAt time.Time `json:\"updated_at\"`", "}", ""]
        elif kind < 0.65:
            out += [f"func (s *{noun}Store) {verb}(ctx context.Context, tenant, id string) (*{noun}, error) {{",
                    f"\tctx, cancel := context.WithTimeout(ctx, {rng.randint(1, 9)}*time.Second)", "\tdefer cancel()", "",
                    f"\trow := s.db.QueryRow(ctx, `SELECT id, tenant_id, status, amount_minor, created_at FROM {table} WHERE tenant_id = $1 AND id = $2`, tenant, id)",
                    f"\tvar out {noun}", "\tif err := row.Scan(&out.ID, &out.TenantID, &out.Status, &out.Amount, &out.CreatedAt); err != nil {",
                    "\t\tif errors.Is(err, pgx.ErrNoRows) {", "\t\t\treturn nil, ErrNotFound", "\t\t}",
                    f'\t\treturn nil, fmt.Errorf("{svc}: {verb.lower()} {noun.lower()} %s: %w", id, err)', "\t}",
                    "\treturn &out, nil", "}", ""]
        else:
            route = f"/v1/{table.replace('_', '-')}/{{id}}"
            out += [f"func (h *Handler) {verb.lower()}{noun}(w http.ResponseWriter, r *http.Request) {{",
                    '\ttenant := r.Header.Get("X-Tenant-ID")', '\tif tenant == "" {',
                    '\t\thttp.Error(w, "missing tenant", http.StatusBadRequest)', "\t\treturn", "\t}",
                    f'\t// {route}', f'\tv, err := h.store.{verb}(r.Context(), tenant, chi.URLParam(r, "id"))', "\tswitch {",
                    "\tcase errors.Is(err, ErrNotFound):", "\t\thttp.Error(w, \"not found\", http.StatusNotFound)",
                    "\tcase err != nil:", f'\t\th.log.Error("{verb.lower()} failed", "err", err, "tenant", tenant)',
                    "\t\thttp.Error(w, \"internal\", http.StatusInternalServerError)", "\tdefault:",
                    "\t\twriteJSON(w, http.StatusOK, v)", "\t}", "}", ""]
    return out


def ts_lines(rng: random.Random, path: str, n: int) -> list[str]:
    name = path.rsplit("/", 1)[-1].split(".")[0]
    if ".test." in path:
        comp = name.replace(".test", "")
        out = ["import { describe, expect, it, vi } from 'vitest'", "import { render, screen } from '@testing-library/react'",
               f"import {{ {comp} }} from '../{comp}'", "", f"describe('{comp}', () => {{"]
        while len(out) < n:
            out += [f"  it('{_pick(rng, TS_CASES)}', async () => {{",
                    f"    const rows = makeRows({rng.randint(0, 60)}, {{ tenant: 't_{_hex(rng, 4)}' }})",
                    f"    render(<{comp} rows={{rows}} pageSize={{{_pick(rng, (10, 20, 25, 50))}}} />)",
                    f"    expect(await screen.findAllByRole('row')).toHaveLength({rng.randint(1, 26)})",
                    f"    expect(screen.getByTestId('{_pick(rng, ('total', 'badge-0', 'status', 'page'))}').textContent).toBe('{_pick(rng, ('1.234,56 €', 'paid', 'open', '2 / 7', 'overdue'))}')",
                    "  })", ""]
        return out + ["})"]
    out = ["import { useEffect, useMemo, useState } from 'react'", "import { Badge, Button, Table } from '@hafen/ui'",
           "import { api } from '../../lib/api'", "import { formatMoney } from '../../lib/format'", ""]
    while len(out) < n:
        comp = _pick(rng, TS_COMPONENTS)
        if rng.random() < 0.3:
            out += [f"export interface {comp}Props {{", "  tenantId: string", "  pageSize?: number", "  onSelect?: (id: string) => void",
                    "}", ""]
            continue
        out += [f"export function {comp}({{ tenantId, pageSize = {_pick(rng, (10, 20, 25, 50))} }}: {comp}Props) {{",
                "  const [page, setPage] = useState(1)", "  const [rows, setRows] = useState<Row[]>([])",
                "  useEffect(() => {", f"    api.get(`/v1/{_pick(rng, ('orders', 'invoices', 'api-keys'))}?tenant=${{tenantId}}&page=${{page}}&limit=${{pageSize}}`)",
                "      .then((r) => setRows(r.items))", "      .catch(() => toast.error('could not load'))", "  }, [tenantId, page, pageSize])",
                "  const total = useMemo(() => rows.reduce((s, r) => s + r.amountMinor, 0), [rows])", "  return (", "    <Table>",
                "      {rows.map((r) => (", "        <tr key={r.id} onClick={() => onSelect?.(r.id)}>",
                "          <td>{r.number}</td>", "          <td>{formatMoney(r.amountMinor, r.currency)}</td>",
                "          <td><Badge tone={r.status === 'paid' ? 'green' : 'gray'}>{r.status}</Badge></td>", "        </tr>",
                "      ))}", f"      <tfoot><tr><td colSpan={{{rng.randint(2, 6)}}}>{{formatMoney(total, 'EUR')}}</td></tr></tfoot>",
                "    </Table>", "  )", "}", ""]
    return out


def rs_lines(rng: random.Random, path: str, n: int) -> list[str]:
    out = ["use std::collections::BTreeMap;", "use std::path::PathBuf;", "", "use anyhow::{bail, Context, Result};",
           "use clap::Args;", "use serde::{Deserialize, Serialize};", "", "use crate::api::ApiClient;", "use crate::config::Config;", ""]
    while len(out) < n:
        r = rng.random()
        name = _pick(rng, ("sync", "deploy", "db", "profile", "target", "release"))
        if r < 0.25:
            out += ["#[derive(Debug, Args)]", f"pub struct {name.capitalize()}Args {{", "    /// Target environment",
                    f"    #[arg(long, default_value = \"{_pick(rng, ('staging', 'dev', 'local'))}\")]", "    pub env: String,",
                    "    #[arg(long)]", "    pub dry_run: bool,", f"    #[arg(long, default_value_t = {rng.randint(2, 16)})]",
                    "    pub parallel: usize,", "}", ""]
        elif r < 0.75:
            out += [f"pub fn {name}_{_pick(rng, ('run', 'plan', 'apply', 'list'))}(cfg: &Config, args: &{name.capitalize()}Args) -> Result<()> {{",
                    "    let client = ApiClient::new(&cfg.endpoint, cfg.token()?)?;",
                    "    let mut pending: BTreeMap<String, u32> = BTreeMap::new();",
                    "    for t in client.targets(&args.env).context(\"listing targets\")? {", "        if t.locked {",
                    "            bail!(\"target {} is locked (since {})\", t.name, t.locked_at);", "        }",
                    f"        pending.insert(t.name.clone(), t.revision + {rng.randint(1, 3)});", "    }", "    if args.dry_run {",
                    "        println!(\"{} targets would change\", pending.len());", "        return Ok(());", "    }",
                    "    client.apply(&pending, args.parallel)?;", "    Ok(())", "}", ""]
        else:
            out += ["#[cfg(test)]", "mod tests {", "    use super::*;", "", "    #[test]", f"    fn {_pick(rng, RS_TESTS)}() {{",
                    f"        let cfg = Config::from_str(include_str!(\"../../testdata/{name}.toml\")).unwrap();",
                    f"        assert_eq!(cfg.profiles.len(), {rng.randint(1, 5)});", "    }", "}", ""]
    return out


def tf_lines(rng: random.Random, path: str, n: int) -> list[str]:
    env = "prod" if "/prod/" in path else "staging"
    out = ["terraform {", '  required_version = ">= 1.7.0"', "  required_providers {",
           f'    google = {{ source = "hashicorp/google", version = "~> 5.{rng.randint(20, 32)}" }}', "  }",
           f'  backend "gcs" {{ bucket = "hafen-tfstate-{env}" prefix = "{path.rsplit("/", 1)[0]}" }}', "}", ""]
    while len(out) < n:
        r = rng.random()
        name = _pick(rng, ("general", "spot", "orders", "billing", "events", "system"))
        if r < 0.35:
            out += [f'resource "google_container_node_pool" "{name}" {{', f'  name       = "{name}"',
                    "  cluster    = google_container_cluster.main.id", f"  node_count = {rng.randint(1, 6)}", "  node_config {",
                    f'    machine_type = "{_pick(rng, ("e2-standard-4", "e2-standard-8", "n2-standard-4", "t2d-standard-4"))}"',
                    f"    disk_size_gb = {_pick(rng, (50, 100, 200))}", f"    spot         = {_pick(rng, ('true', 'false'))}", "  }", "}", ""]
        elif r < 0.7:
            out += [f'resource "google_pubsub_topic" "{name}_events" {{', f'  name = "{name}-events"',
                    f'  message_retention_duration = "{rng.randint(1, 7) * 86400}s"', "}", "",
                    f'resource "google_pubsub_subscription" "{name}_events_worker" {{', f'  name  = "{name}-events-worker"',
                    f"  topic = google_pubsub_topic.{name}_events.id", f"  ack_deadline_seconds = {_pick(rng, (10, 20, 30, 60))}", "}", ""]
        else:
            out += [f'resource "google_sql_database_instance" "{name}" {{', f'  name             = "{name}-{env}"',
                    '  database_version = "POSTGRES_16"', '  region           = "europe-west3"', "  settings {",
                    f'    tier = "db-custom-{_pick(rng, (2, 4, 8))}-{_pick(rng, (7680, 15360, 30720))}"',
                    f"    availability_type = \"{_pick(rng, ('ZONAL', 'REGIONAL'))}\"", "  }", "}", ""]
    return out


def conf_lines(rng: random.Random, path: str) -> list[str]:
    if path == "go.work":
        return ["go 1.22", "", "toolchain go1.22.2", "", "use (", *[f"\t./services/{s}" for s in SVCS], "\t./libs/go", ")"]
    if path == "Makefile":
        return [".PHONY: test lint proto web cli", "", "test:", "\tgo test ./services/... ./libs/...", "", "lint:",
                "\tgolangci-lint run ./...", "", "proto:", "\tbuf generate", "", "web:", "\tpnpm -C web build", "", "cli:",
                "\tcargo build --manifest-path tools/hafenctl/Cargo.toml --release", "", "up:",
                "\tdocker compose up -d postgres redis jaeger mailpit"]
    if path == ".golangci.yml":
        return ["run:", "  timeout: 5m", "linters:", "  enable:", "    - errcheck", "    - govet", "    - ineffassign",
                "    - staticcheck", "    - gofumpt", "    - revive", "linters-settings:", "  revive:", "    rules:",
                "      - name: exported", "        disabled: true", "issues:", "  exclude-dirs:", "    - gen"]
    if path == "web/package.json":
        deps = [f'    "{d}": "^{v}"' for d, v in NPM_DEPS[:6]]
        dev = [f'    "{d}": "^{v}"' for d, v in NPM_DEPS[6:]]
        return ["{", '  "name": "@hafen/web",', '  "private": true,', '  "type": "module",', '  "scripts": {',
                '    "dev": "vite --port 5173",', '    "build": "tsc -b && vite build",', '    "test": "vitest run",',
                '    "typecheck": "tsc --noEmit",', '    "lint": "eslint . --max-warnings 0"', "  },", '  "dependencies": {',
                ",\n".join(deps), "  },", '  "devDependencies": {', ",\n".join(dev), "  },", '  "packageManager": "pnpm@9.1.4"', "}"]
    if path.endswith("Cargo.toml"):
        return ["[package]", 'name = "hafenctl"', 'version = "0.14.2"', 'edition = "2021"', "", "[dependencies]",
                *[f'{c} = "{v}"' for c, v in CRATES[:10]], "", "[dev-dependencies]", 'assert_cmd = "2.0.14"', 'predicates = "3.1.0"']
    if path == "docker-compose.yml":
        out = ["services:"]
        for name, image, port in (("postgres", "postgres:16-alpine", "5432:5432"), ("redis", "redis:7.2", "6379:6379"),
                                  ("jaeger", "jaegertracing/all-in-one:1.57", "16686:16686"), ("mailpit", "axllent/mailpit:v1.18", "8025:8025"),
                                  ("pubsub", "gcr.io/google.com/cloudsdktool/google-cloud-cli:emulators", "8085:8085")):
            out += [f"  {name}:", f"    image: {image}", "    ports:", f'      - "{port}"', "    restart: unless-stopped"]
        return out
    if path.endswith("ci.yml"):
        return ["name: ci", "on:", "  pull_request:", "  push:", "    branches: [main]", "jobs:", "  go:",
                "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4", "      - uses: actions/setup-go@v5",
                "        with:", "          go-version-file: go.work", "      - run: make lint test", "  web:",
                "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4", "      - uses: pnpm/action-setup@v4",
                "      - run: pnpm -C web install --frozen-lockfile", "      - run: pnpm -C web typecheck && pnpm -C web test",
                "  cli:", "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4",
                "      - run: cargo clippy --manifest-path tools/hafenctl/Cargo.toml -- -D warnings",
                "      - run: cargo test --manifest-path tools/hafenctl/Cargo.toml"]
    svc = _svc_of(path)
    return ["server:", f"  port: {_pick(rng, PORTS)}", f"  read_timeout: {rng.randint(2, 15)}s", "  shutdown_grace: 20s", "db:",
            f"  dsn_secret: projects/hafen-stg/secrets/{svc}-db-dsn", f"  max_conns: {rng.randint(8, 40)}",
            f"  max_idle_conns: {rng.randint(2, 8)}", "redis:", "  addr: redis-master.redis.svc:6379", "telemetry:",
            "  otlp_endpoint: otel-collector.observability.svc:4317", f"  sample_ratio: 0.{rng.randint(1, 5)}", "features:",
            f"  tenant_cache_ttl: {rng.randint(30, 300)}s", f"  page_size_max: {_pick(rng, (100, 200, 500))}"]


def file_lines(rng: random.Random, path: str, n: int) -> list[str]:
    if path.endswith(".go"):
        return go_lines(rng, path, n)
    if path.endswith((".ts", ".tsx")):
        return ts_lines(rng, path, n)
    if path.endswith(".rs"):
        return rs_lines(rng, path, n)
    if path.endswith(".tf"):
        return tf_lines(rng, path, n)
    return conf_lines(rng, path)


# --- tool outputs ------------------------------------------------------------------------------------------------
def go_test_out(rng: random.Random, size: int, svc: str, verbose: bool = True, fail: list[str] | None = None,
                at: float = 0.6) -> str:
    """``go test`` over a service's packages; ``fail`` lines are put in the failing package's block, ``at`` of the way."""
    pkgs = sorted({_pkg_of(f) for f in GO_FILES.get(svc, LIB_FILES)})
    out: list[str] = []
    n = 0
    while n < size:
        for pkg in pkgs:
            if "/cmd/" in pkg:
                out.append(f"?   \t{pkg}\t[no test files]")
                continue
            if verbose:
                for _ in range(rng.randint(2, 7)):
                    name = _go_test_name(rng, svc if svc in GO_NOUNS else "libs")
                    out.append(f"=== RUN   {name}")
                    if rng.random() < 0.3:
                        out.append(f"    {_pick(rng, ('pg_test.go', 'handler_test.go', 'store_test.go'))}:{rng.randint(20, 300)}: "
                                   f"{_pick(rng, ('using container postgres:16-alpine on port ', 'listening on 127.0.0.1:', 'redis at localhost:'))}{rng.randint(32768, 60999)}")
                    for _ in range(rng.randint(0, 3)):
                        out.append(f"=== RUN   {name}/{_pick(rng, ('happy_path', 'unknown_tenant', 'expired', 'duplicate_key', 'empty'))}")
                    out.append(f"--- PASS: {name} (0.{rng.randint(0, 99):02d}s)")
                out.append("PASS")
            out.append(f"ok  \t{pkg}\t{rng.uniform(0.01, 4.9):.3f}s")
            n = sum(len(x) + 1 for x in out)
            if n >= size:
                break
    if fail:
        cut = max(0, min(len(out) - 1, int(len(out) * at)))
        while cut < len(out) - 1 and not out[cut].startswith("ok  "):
            cut += 1
        pkg = out[cut].split("\t")[1] if out[cut].startswith("ok  ") else pkgs[0]
        block = fail + ["FAIL", f"FAIL\t{pkg}\t{rng.uniform(0.05, 3.0):.3f}s"]
        out[cut:cut + 1] = block
        out.append("FAIL")
    return "\n".join(out)


def goroutine_trace(rng: random.Random, svc: str, frames: int = 8) -> list[str]:
    out = [f"goroutine {rng.randint(7, 400)} [running]:"]
    for _ in range(frames):
        f = _pick(rng, GO_FILES.get(svc, LIB_FILES))
        out += [f"{_pkg_of(f)}.(*{_pick(rng, GO_NOUNS.get(svc, GO_NOUNS['libs']))}Store).{_pick(rng, GO_VERBS)}(0xc000{_hex(rng, 6)}, {{0x{_hex(rng, 7)}, 0xc000{_hex(rng, 6)}}})",
                f"\t{ROOT}/{f}:{rng.randint(20, 400)} +0x{_hex(rng, 3)}"]
    out += ["created by net/http.(*Server).Serve in goroutine 1", f"\t/usr/local/go/src/net/http/server.go:{rng.randint(3000, 3300)} +0x{_hex(rng, 3)}"]
    return out


def vitest_out(rng: random.Random, size: int, fail: list[str] | None = None, fail_file: str = "") -> str:
    head = [f" RUN  v1.6.0 {ROOT}/web", ""]
    tests = [f for f in TS_FILES if ".test." in f]

    def body() -> str:
        f = _pick(rng, tests).replace("web/", "", 1)
        return f" ✓ {f} ({rng.randint(2, 30)} tests) {rng.randint(3, 900)}ms"
    text = _grow(size - 400, head, body)
    files = text.count(" ✓ ")
    if fail:
        text += f"\n ❯ {fail_file} ({rng.randint(3, 12)} tests | 1 failed) {rng.randint(40, 900)}ms\n\n" + "\n".join(fail)
    failed = 1 if fail else 0
    total = files * rng.randint(6, 9)
    return text + (f"\n\n Test Files  {failed} failed | {files} passed ({files + failed})" if failed else
                   f"\n\n Test Files  {files} passed ({files})") + (
        f"\n      Tests  {failed} failed | {total} passed ({total + failed})" if failed else f"\n      Tests  {total} passed ({total})") + (
        f"\n   Start at  {rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}\n   Duration  {rng.uniform(2, 30):.2f}s "
        f"(transform {rng.uniform(0.5, 3):.2f}s, setup {rng.uniform(0.5, 3):.2f}s, collect {rng.uniform(1, 6):.2f}s, "
        f"tests {rng.uniform(1, 9):.2f}s, environment {rng.uniform(1, 8):.2f}s, prepare {rng.uniform(0.5, 3):.2f}s)")


def jest_fail_block(suite: str, case: str, expected: str, received: str, path: str, line: int, rng: random.Random) -> list[str]:
    return [f" FAIL  {path}", f"  ● {suite} › {case}", "", "    expect(received).toBe(expected) // Object.is equality", "",
            f'    Expected: "{expected}"', f'    Received: "{received}"', "",
            f"      {line - 1} |     render(<{suite} rows={{rows}} />)",
            f"    > {line} |     expect(screen.getByTestId('status').textContent).toBe('{expected}')",
            "         |                                                     ^", f"      {line + 1} |   }})", "",
            f"      at Object.<anonymous> ({path}:{line}:{rng.randint(40, 60)})", ""]


def jest_out(rng: random.Random, size: int, fail: list[str] | None = None) -> str:
    suites = ("src/__tests__/client.test.ts", "src/__tests__/retry.test.ts", "src/__tests__/paginate.test.ts", "src/__tests__/errors.test.ts")

    def body() -> str:
        return f" PASS  {_pick(rng, suites)} ({rng.uniform(0.4, 6):.3f} s)"
    text = _grow(size - 300, ["> @hafen/api-client@0.9.1 test", "> jest --ci", ""], body)
    passed = text.count(" PASS ")
    total = passed * rng.randint(3, 8)
    if fail:
        text += "\n" + "\n".join(fail)
    return text + (f"\nTest Suites: {1 if fail else 0} failed, {passed} passed, {passed + (1 if fail else 0)} total" if fail
                   else f"\nTest Suites: {passed} passed, {passed} total") + (
        f"\nTests:       {1 if fail else 0} failed, {total} passed, {total + (1 if fail else 0)} total" if fail
        else f"\nTests:       {total} passed, {total} total") + f"\nSnapshots:   0 total\nTime:        {rng.uniform(3, 20):.3f} s\nRan all test suites."


def cargo_out(rng: random.Random, size: int, mode: str = "test", fail: list[str] | None = None) -> str:
    """``cargo build``/``test``/``clippy`` for hafenctl: compile lines, warnings, and tests or a failure."""
    head: list[str] = []
    for c, v in CRATES:
        if rng.random() < 0.7:
            head.append(f"   Compiling {c} v{v}")
    warns = []
    for _ in range(rng.randint(0, 3) if mode != "clippy" else rng.randint(2, 6)):
        f = _pick(rng, RS_FILES).replace("tools/hafenctl/", "")
        ln = rng.randint(5, 300)
        var = _pick(rng, ("resp", "target", "env", "rev", "entry", "client", "opts", "tmp"))
        kind = _pick(rng, (
            (f"unused variable: `{var}`", f"let {var} = client.get(&url)?;", f"= help: if this is intentional, prefix it with an underscore: `_{var}`"),
            ("this `if` has identical blocks", f"if {var}.is_empty() {{", "= help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else"),
            ("redundant clone", f"let name = {var}.name.clone();", "= help: remove this"),
            ("unused import: `std::io::Write`", "use std::io::Write;", "= note: `#[warn(unused_imports)]` on by default")))
        warns += [f"warning: {kind[0]}", f"  --> {f}:{ln}:{rng.randint(5, 30)}", "   |", f"{ln:<3}|     {kind[1]}",
                  "   |     ^^^^^^^^", "   |", f"   {kind[2]}", ""]
    head += [f"   Compiling hafenctl v0.14.2 ({ROOT}/tools/hafenctl)"] + warns
    if fail:
        return "\n".join(head + fail + [f"error: could not compile `hafenctl` (bin \"hafenctl\") due to 1 previous error; {len(warns) // 8} warnings emitted"])
    if mode in ("build", "clippy"):
        return "\n".join(head + [f"    Finished `dev` profile [unoptimized + debuginfo] target(s) in {rng.uniform(1, 60):.2f}s"])
    head += [f"    Finished `test` profile [unoptimized + debuginfo] target(s) in {rng.uniform(2, 50):.2f}s",
             "     Running unittests src/main.rs (target/debug/deps/hafenctl-" + _hex(rng, 16) + ")", ""]
    count = [0]

    def body() -> str:
        count[0] += 1
        mod = _pick(rng, ("cmd::sync", "cmd::deploy", "cmd::db", "config", "api", "output"))
        return f"test {mod}::tests::{_pick(rng, RS_TESTS)} ... ok"
    text = _grow(size, [f"running {rng.randint(20, 90)} tests"], body)
    return "\n".join(head) + "\n" + text + (
        f"\n\ntest result: ok. {count[0]} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in {rng.uniform(0.05, 3):.2f}s\n")


def tsc_out(rng: random.Random, size: int, extra: list[str] | None = None) -> str:
    """``tsc --noEmit`` from the repo root: error lines with web/ paths, then the summary."""
    msgs = ("error TS2322: Type 'string | undefined' is not assignable to type 'string'.",
            "error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
            "error TS7006: Parameter 'r' implicitly has an 'any' type.",
            "error TS2339: Property 'amountMinor' does not exist on type 'Row'.",
            "error TS18048: 'row.total' is possibly 'undefined'.",
            "error TS2304: Cannot find name 'toast'.")
    srcs = [f for f in TS_FILES if ".test." not in f]
    lines: list[str] = []
    n = 0
    while n < size and len(lines) < 60:
        line = f"{_pick(rng, srcs)}({rng.randint(3, 220)},{rng.randint(3, 40)}): {_pick(rng, msgs)}"
        lines.append(line)
        n += len(line) + 1
    if extra:
        lines[rng.randint(0, len(lines)):0] = extra
    files = len({x.split("(")[0] for x in lines})
    return "\n".join(lines) + f"\n\nFound {len(lines)} errors in {files} files.\n"


def lint_out(rng: random.Random, size: int, extra: list[str] | None = None) -> str:
    """golangci-lint: issues with their source line and a caret, then the count."""
    kinds = (("Error return value of `{x}` is not checked", "errcheck", ("rows.Close", "tx.Rollback", "resp.Body.Close", "w.Write", "enc.Encode")),
             ("ineffectual assignment to {x}", "ineffassign", ("err", "n", "ok", "page")),
             ("SA1019: {x} is deprecated: use io.ReadAll", "staticcheck", ("ioutil.ReadAll",)),
             ("exported function {x} should have comment or be unexported", "revive", ("NewHandler", "WithRetry", "ParseTenant")),
             ("File is not `gofumpt`-ed", "gofumpt", ("",)))
    out: list[str] = []
    n = 0
    while n < size:
        text, linter, xs = _pick(rng, kinds)
        f = _pick(rng, ALL_GO)
        line = f"{f}:{rng.randint(10, 400)}:{rng.randint(1, 30)}: {text.replace('{x}', _pick(rng, xs))} ({linter})"
        out += [line, f"\t{_pick(rng, ('defer rows.Close()', 'err = h.store.Update(ctx, o)', 'data, _ := ioutil.ReadAll(r.Body)', 'w.Write(b)'))}",
                f"\t{' ' * rng.randint(0, 8)}^"]
        n += len(line) + 40
    if extra:
        at = rng.randint(0, len(out) // 3) * 3
        out[at:at] = extra
    return "\n".join(out) + f"\n{len(out) // 3} issues:\n" + "\n".join(f"* {k[1]}: {rng.randint(1, 9)}" for k in kinds[:3])


def _short(env: str) -> str:
    return "prd" if env == "prod" else "stg"


def tf_plan_out(rng: random.Random, size: int, env: str = "staging", extra: list[str] | None = None) -> str:
    head = [f"{r}: Refreshing state... [id=projects/hafen-{_short(env)}/{p}]" for r, p in (
        ("google_container_cluster.main", "locations/europe-west3/clusters/main"),
        ("google_pubsub_topic.orders_events", "topics/orders-events"),
        ("google_sql_database_instance.orders", "instances/orders-" + env))]

    def body() -> str:
        name = _pick(rng, ("general", "spot", "orders", "billing", "events", "system", "notify", "gateway"))
        kind = _pick(rng, ("google_pubsub_subscription", "google_service_account", "google_project_iam_member",
                           "google_storage_bucket", "google_compute_firewall", "google_secret_manager_secret"))
        return f"{kind}.{name}_{_pick(rng, ('worker', 'reader', 'dlq', 'events', 'exports'))}: Refreshing state... [id=projects/hafen-{_short(env)}/{name}-{_hex(rng, 4)}]"
    text = _grow(max(300, size - 900), head, body)
    pool = _pick(rng, ("general", "spot", "system"))
    changes = ["", "Terraform used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:",
               "  ~ update in-place", "", "Terraform will perform the following actions:", "",
               f"  # google_container_node_pool.{pool} will be updated in-place",
               f'  ~ resource "google_container_node_pool" "{pool}" {{',
               f'        id         = "projects/hafen-{_short(env)}/locations/europe-west3/clusters/main/nodePools/{pool}"',
               f"      ~ node_count = {rng.randint(1, 3)} -> {rng.randint(4, 6)}",
               "        # (11 unchanged attributes hidden)", "    }", ""]
    if extra:
        changes += extra
    return text + "\n" + "\n".join(changes) + f"\nPlan: 0 to add, {1 + (1 if extra else 0)} to change, 0 to destroy.\n"


def git_log_out(rng: random.Random, size: int, oneline: bool = False) -> str:
    def body() -> str:
        name, handle = _pick(rng, FILLER_PEOPLE)
        subj = _pick(rng, COMMIT_SUBJECTS) + (f" (#{rng.randint(3000, 4899)})" if rng.random() < 0.6 else "")
        if oneline:
            return f"{_hex(rng, 7)} {subj}"
        return (f"commit {_sha(rng)}\nAuthor: {name} <{handle}@hafenlabs.io>\nDate:   {_date(rng)}\n\n    {subj}\n"
                + (f"\n    Refs: HFN-{rng.randint(1000, 1999)}\n" if rng.random() < 0.4 else ""))
    return _grow(size, [], body)


def git_status_out(rng: random.Random) -> str:
    b = _pick(rng, BRANCHES[1:7])
    files = rng.sample(ALL_GO + TS_FILES, rng.randint(0, 5))
    if not files:
        return f"On branch {b}\nYour branch is up to date with 'origin/{b}'.\n\nnothing to commit, working tree clean"
    return (f"On branch {b}\nYour branch is ahead of 'origin/{b}' by {rng.randint(1, 4)} commits.\n  (use \"git push\" to publish your local commits)\n\n"
            "Changes not staged for commit:\n  (use \"git add <file>...\" to update what will be committed)\n"
            + "\n".join(f"\tmodified:   {f}" for f in files) + "\n\nno changes added to commit (use \"git add\" and/or \"git commit -a\")")


def git_diff_out(rng: random.Random, size: int, files: dict[str, list[str]]) -> str:
    out: list[str] = []
    n = 0
    paths = list(files) or list(ALL_GO[:3])
    while n < size:
        path = _pick(rng, paths)
        lines = files.get(path) or ["// empty"]
        at = rng.randrange(max(1, len(lines) - 8))
        chunk = lines[at:at + 7]
        out += [f"diff --git a/{path} b/{path}", f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644", f"--- a/{path}", f"+++ b/{path}",
                f"@@ -{at + 1},{len(chunk)} +{at + 1},{len(chunk) + 1} @@"]
        for j, line in enumerate(chunk):
            out.append(("-" if j == 3 else " ") + line)
            if j == 3:
                out.append("+" + line.replace("err", "fmt.Errorf(\"wrap: %w\", err)", 1) if "err" in line else "+" + line + " // reviewed")
        n = sum(len(x) + 1 for x in out)
    return "\n".join(out)


class _Clock:
    """Timestamps of one log, moving forward."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.t = rng.randint(6 * 3600, 20 * 3600) * 1000.0
        self.day = f"2025-0{rng.randint(3, 6)}-{rng.randint(10, 28)}"

    def __call__(self) -> str:
        self.t += self.rng.expovariate(1 / 400)
        ms = int(self.t)
        return f"{self.day}T{ms // 3600000 % 24:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}{self.rng.randint(0, 9999):04d}Z"


STEPS = {"go": "Run make lint test", "web": "Run pnpm -C web typecheck && pnpm -C web test",
         "cli": "Run cargo test --manifest-path tools/hafenctl/Cargo.toml"}


def gh_run_log_out(rng: random.Random, size: int, extra: list[str] | None = None, job: str = "go") -> str:
    """``gh run view --log-failed``: job, step and a timestamp on every line."""
    step, clock = STEPS[job], _Clock(rng)

    def body() -> str:
        svc = _pick(rng, SVCS)
        dep, versions = _pick(rng, GO_DEPS)
        if job == "web":
            msg = _pick(rng, (f" ✓ {_pick(rng, [f for f in TS_FILES if '.test.' in f]).replace('web/', '', 1)} ({rng.randint(2, 30)} tests) {rng.randint(3, 900)}ms",
                              f"Progress: resolved {rng.randint(800, 1400)}, reused {rng.randint(700, 1300)}, downloaded {rng.randint(0, 90)}, added {rng.randint(0, 90)}",
                              f" WARN  deprecated {_pick(rng, ('inflight@1.0.6', 'glob@7.2.3', 'rimraf@3.0.2'))}: This module is not supported"))
        elif job == "cli":
            msg = _pick(rng, (f"   Compiling {_pick(rng, CRATES)[0]} v{_pick(rng, CRATES)[1]}",
                              f"test cmd::{_pick(rng, ('sync', 'deploy', 'db'))}::tests::{_pick(rng, RS_TESTS)} ... ok"))
        else:
            msg = _pick(rng, (f"ok  \t{_pkg_of(_pick(rng, GO_FILES[svc]))}\t{rng.uniform(0.01, 9):.3f}s", f"go: downloading {dep} {_pick(rng, versions)}",
                              f"=== RUN   {_go_test_name(rng, svc)}", f"--- PASS: {_go_test_name(rng, svc)} (0.{rng.randint(0, 99):02d}s)",
                              f"level=info msg=\"[runner] linters took {rng.uniform(1, 40):.3f}s\"",
                              "postgres: listening on IPv4 address \"0.0.0.0\", port 5432",
                              f"level=warning msg=\"retrying connection ({rng.randint(1, 5)}/5)\""))
        return f"{job}\t{step}\t{clock()} {msg}"
    lines = _grow(size, [], body).split("\n")
    if extra:
        at = rng.randint(len(lines) // 2, len(lines))
        lines[at:at] = [f"{job}\t{step}\t{clock()} {x}" for x in extra]
    return "\n".join(lines + [f"{job}\t{step}\t{clock()} ##[error]Process completed with exit code 1."])


def gh_pr_out(rng: random.Random, num: str, title: str, state: str = "OPEN") -> str:
    name, handle = _pick(rng, FILLER_PEOPLE)
    checks = "\n".join(f"{_pick(rng, ('✓', '✓', '✓', 'X'))} ci / {j} ({_pick(rng, ('pull_request', 'push'))})  {rng.randint(1, 14)}m{rng.randint(0, 59)}s"
                       for j in ("go", "web", "cli", "terraform-fmt"))
    return (f"{title} #{num}\n{state} • {handle} wants to merge {rng.randint(1, 9)} commits into main from {_pick(rng, BRANCHES[1:7])} • "
            f"+{rng.randint(5, 900)} −{rng.randint(0, 400)}\nReviewers: {_pick(rng, FILLER_PEOPLE)[1]} (Approved), "
            f"{_pick(rng, FILLER_PEOPLE)[1]} (Requested)\nLabels: {_pick(rng, ('backend', 'web', 'cli', 'infra'))}\n\n"
            f"  {_pick(rng, COMMIT_SUBJECTS)}. See the linked ticket for context.\n\n{checks}\n\n"
            f"View this pull request on GitHub: https://github.com/hafenlabs/hafen/pull/{num}")


def mod_graph_out(rng: random.Random, size: int, dep: str = "") -> str:
    def body() -> str:
        a, av = _pick(rng, GO_DEPS)
        b, bv = _pick(rng, GO_DEPS)
        left = f"{MODULE}/services/{_pick(rng, SVCS)}" if rng.random() < 0.3 else f"{a}@{_pick(rng, av)}"
        return f"{left} {b}@{_pick(rng, bv)}"
    return _grow(size, [], body)


def pnpm_why_out(rng: random.Random, pkg: str, version: str, size: int) -> str:
    head = ["Legend: production dependency, optional only, dev only", "", f"@hafen/web@0.0.0 {ROOT}/web", ""]

    def body() -> str:
        via = _pick(rng, [d for d, _ in NPM_DEPS])
        return f"{_pick(rng, ('dependencies:', 'devDependencies:'))}\n{via} {_pick(rng, [v for _, v in NPM_DEPS])}\n└── {pkg} {version}"
    return _grow(size, head, body)


def compose_ps_out(rng: random.Random) -> str:
    rows = ["NAME                IMAGE                              COMMAND                  SERVICE    CREATED        STATUS                  PORTS"]
    for name, image, port in (("postgres", "postgres:16-alpine", 5432), ("redis", "redis:7.2", 6379),
                              ("jaeger", "jaegertracing/all-in-one:1.57", 16686), ("mailpit", "axllent/mailpit:v1.18", 8025)):
        rows.append(f"hafen-{name}-1    {image:<34} \"docker-entrypoint.s…\"   {name:<10} {rng.randint(2, 9)} hours ago    "
                    f"Up {rng.randint(2, 9)} hours (healthy)   0.0.0.0:{port}->{port}/tcp")
    return "\n".join(rows)


def kubectl_out(rng: random.Random, size: int, ctx: str = "") -> str:
    head = ["NAME                              READY   STATUS    RESTARTS      AGE"]

    def body() -> str:
        svc = _pick(rng, SVCS)
        return (f"{svc}-{_hex(rng, 9)}-{_b32(rng, 5).lower()}   {_pick(rng, ('1/1', '1/1', '0/1'))}     "
                f"{_pick(rng, ('Running', 'Running', 'Running', 'CrashLoopBackOff', 'Pending'))}   {rng.randint(0, 9)}             {rng.randint(1, 40)}h")
    return _grow(size, head, body)


def bench_out(rng: random.Random, size: int, extra: str = "") -> str:
    head = ["goos: linux", "goarch: amd64", f"pkg: {MODULE}/services/billing/internal/invoice", "cpu: AMD Ryzen 7 PRO 5850U with Radeon Graphics"]

    def body() -> str:
        return (f"Benchmark{_pick(rng, ('Render', 'Encode', 'Total', 'Tax', 'Round'))}{_pick(rng, ('Lines', 'Invoice', 'Header', 'Cents'))}-16   "
                f"\t{rng.randint(1000, 900000):>8}\t{rng.randint(100, 99999):>10} ns/op\t{rng.randint(0, 9000):>6} B/op\t{rng.randint(0, 90):>4} allocs/op")
    text = _grow(size, head, body)
    if extra:
        lines = text.split("\n")
        lines.insert(rng.randint(4, len(lines)), extra)
        text = "\n".join(lines)
    return text + f"\nPASS\nok  \t{MODULE}/services/billing/internal/invoice\t{rng.uniform(5, 40):.3f}s"


DOC_PAGES = (("https://pkg.go.dev/github.com/jackc/pgx/v5/pgxpool", "pgxpool", (
    "Package pgxpool is a concurrency-safe connection pool for pgx.",
    "Config.MaxConns defaults to the greater of 4 or runtime.NumCPU(); MaxConnIdleTime defaults to 30 minutes.",
    "Acquire returns a connection from the pool; the caller must Release it. Exec, Query and QueryRow acquire and release for you.",
    "BeforeAcquire is called before a connection is acquired from the pool. It must return true to allow the acquisition.")),
    ("https://vitest.dev/config/", "vitest config", (
        "environment: the environment used for testing, node by default; use jsdom or happy-dom for browser-like tests.",
        "testTimeout: default timeout of a test in milliseconds (5000 by default).",
        "pool: threads by default since v1; forks and vmThreads are the alternatives, set per project in a workspace.",
        "coverage.provider: v8 by default, istanbul as the alternative.")),
    ("https://doc.rust-lang.org/error_codes/E0502.html", "E0502", (
        "A variable already borrowed with a certain mutability was borrowed again with a different mutability.",
        "Erroneous code example: fn bar(x: &mut i32) {} fn foo(a: &mut i32) { let y = &a; bar(a); println!(\"{}\", y); }",
        "To fix this error, ensure that you don't have any other references to the variable before trying to access it with a different mutability.")),
    ("https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/container_node_pool", "google_container_node_pool", (
        "Manages a node pool in a Google Kubernetes Engine (GKE) cluster separately from the cluster control plane.",
        "node_count - (Optional) The number of nodes per instance group. This field can be used to update the number of nodes per instance group but should not be used alongside autoscaling.",
        "Changing node_config.machine_type forces a new resource to be created.")),
    ("https://golangci-lint.run/usage/linters/", "golangci-lint linters", (
        "errcheck: checks for unchecked errors in Go code. These unchecked errors can be critical bugs in some cases.",
        "ineffassign: detects when assignments to existing variables are not used.",
        "gofumpt: checks whether code was gofumpt-ed. Enabled by default: false.")),
    ("https://pnpm.io/workspaces", "pnpm workspaces", (
        "pnpm has built-in support for monorepositories (AKA multi-package repositories, multi-project repositories, or monolithic repositories).",
        "The workspace: protocol: if link-workspace-packages is set to false, pnpm only links packages from the workspace if the workspace: protocol is used.",
        "pnpm -r, --recursive runs a command in every project of the workspace.")))


def webfetch_out(rng: random.Random, size: int, page: tuple[str, str, tuple[str, ...]]) -> str:
    url, title, paras = page
    head = [f"# {title}", f"Source: {url}", ""]
    return _grow(size, head, lambda: _pick(rng, paras))


TODO_RESULT = ("Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. "
               "Please proceed with the current tasks if applicable")


def _scale(n: int) -> float:
    """How long the agent's loops run, against a 2500-message session's: about a third at 400 messages."""
    return min(1.0, (n / 2500) ** 0.6)


# --- the builder -------------------------------------------------------------------------------------------------
Call = tuple[str, dict[str, Any], str]  # (tool, arguments, result)


class _Builder:
    """The conversation as it grows, the files the filler has seen, and the values nothing else may say."""

    def __init__(self, rng: random.Random, n: int, forbidden: Sequence[str], boost: float = 1.0) -> None:
        self.rng, self.n = rng, n
        self.msgs: list[Message] = []
        self.pasted: list[tuple[int, str]] = []
        self.forbidden = tuple(forbidden)
        self.chars = 0
        self.files: dict[str, list[str]] = {}
        self.routine: dict[str, str] = {}  # a routine command's output, said again as it was
        self.scale = _scale(n)
        self.per_message = boost * PER_MESSAGE * (1.1 - 0.1 * self.scale)  # a short session has few outputs to catch up with

    # messages
    def _add(self, m: Message) -> int:
        self.msgs.append(m)
        self.chars += len(text_of(m))
        return len(self.msgs) - 1

    def user(self, text: str, pasted: str | None = None) -> int:
        at = self._add({"role": "user", "content": text})
        if pasted is not None:
            assert pasted in text
            self.pasted.append((at, pasted))
        return at

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def act(self, calls: Sequence[Call], note: str | None = None) -> int:
        """One assistant message with ``calls``, each answered at once, in order."""
        ids = ["toolu_01" + "".join(ALNUM[self.rng.randrange(62)] for _ in range(22)) for _ in calls]
        at = self._add({"role": "assistant", "content": note, "tool_calls": [
            {"id": i, "type": "function", "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
            for i, (name, args, _) in zip(ids, calls)]})
        for i, (name, _, result) in zip(ids, calls):
            self._add({"role": "tool", "tool_call_id": i, "name": name, "content": result})
        return at

    # sizes and cleanliness
    def size(self, base: int = 2600, lo: int = 350, hi: int = 15000) -> int:
        """The next long output's size: a draw around ``base``, pulled towards the session's average."""
        debt = self.per_message * (len(self.msgs) + 3) - self.chars
        if debt > 8 * PER_MESSAGE:  # far behind (a short session, mostly talk): any output may be long
            hi = max(hi, 20000)
        draw = base * self.rng.lognormvariate(0, 0.45)
        return int(min(hi, max(lo, draw + 0.8 * debt)))

    def dirty(self, text: str) -> bool:
        return any(v in text for v in self.forbidden)

    def draw(self, make: Callable[[], str], allowed: Sequence[str] = ()) -> str:
        """A text from ``make`` that says no planted value (but the ``allowed`` ones)."""
        for _ in range(40):
            text = make()
            rest = text
            for v in allowed:
                rest = rest.replace(v, "")
            if not self.dirty(rest):
                return text
        raise _Dirty("draw")

    def unit(self, run: Callable[[], object]) -> None:
        """Run a piece of filler; if it said a planted value, take it back and run it again."""
        for _ in range(40):
            mark, chars, pasted = len(self.msgs), self.chars, len(self.pasted)
            run()
            if not any(self.dirty(text_of(m)) for m in self.msgs[mark:]):
                return
            del self.msgs[mark:]
            del self.pasted[pasted:]
            self.chars = chars
        raise _Dirty("filler")

    def file(self, path: str) -> list[str]:
        """A file of the repository as the filler knows it (the same text every time it is read)."""
        if path not in self.files:
            n = self.rng.randint(80, 600)
            self.files[path] = file_lines(self.rng, path, n)
            if self.dirty("\n".join(self.files[path])):
                del self.files[path]
                raise _Dirty(path)
        return self.files[path]

    def calls(self, k: int) -> int:
        """How many calls a loop of his turn takes: up to ``k`` in a long session, fewer in a short one."""
        return max(1, round(self.rng.randint(max(1, k // 3), k) * self.scale))


# --- routine work ------------------------------------------------------------------------------------------------
GERMAN_BITS = ("passt", "danke", "genau", "alles klar", "moment", "na gut", "egal", "läuft", "ok, weiter", "schau mal",
               "kurze frage", "bitte", "jo", "ach so", "stimmt", "mist", "super, danke", "feierabend gleich")
CHAT = (("status?", "Nothing running. Last thing was the {svc} test run, all green; the branch has 2 local commits not pushed."),
        ("ok", "👍"), ("passt", "Alright."), ("danke!", "Gern. Anything else for now?"), ("whats left on the todo list", "Two items open: the {svc} lint fallout and the changelog entry. Everything else is done."),
        ("hm ok. lunch, back in 30", "Sure — I'll leave things as they are."), ("did you push?", "No, nothing pushed. It's all local on the branch."),
        ("egal, weiter", "Moving on."), ("is the tree clean?", "Yes, `git status` was clean after the last commit."),
        ("kurze frage: are we still on go 1.22 in go.work?", "Yes, `go 1.22` with `toolchain go1.22.2`."),
        ("why did that take so long", "Mostly the test containers starting; the tests themselves ran in a few seconds."),
        ("ok cool", "🙂"), ("alles klar", "Ok."), ("anything weird in there?", "Nothing beyond what I mentioned — see above."),
        ("that's the one i meant", "Got it."), ("hmm. leave it for now", "Leaving it as is."))
# What he asks for in a routine turn, by topic: (what the agent does about it, his words).
ASKS = {
    "go": (("test", "run the {svc} tests"), ("test", "can you run go test for {svc} pls"), ("test", "mach mal die tests für {svc}"),
           ("lint", "fix the lint in {svc}"), ("lint", "schau mal warum {svc} lint rot ist"), ("rename", "rename {a} to {b} in {svc}"),
           ("search", "is {a} used anywhere outside {svc}?"), ("read", "whats {file} doing with retries, skim it"),
           ("read", "look at the error wrapping in {file}"), ("change", "add a log line in the {svc} handler when the tenant header is missing"),
           ("change", "small thing: typo in a comment in {file}"), ("build", "check if {svc} still compiles after the rebase"),
           ("test", "why is {svc} so slow to test"), ("build", "tidy the go.mod in {svc} and make sure it builds")),
    "web": (("test", "run the web tests"), ("tsc", "tsc is complaining, can you look"), ("rename", "rename {a} to {b} in web/"),
            ("read", "whats the pagination doing in {file}"), ("test", "run vitest for the invoices feature"), ("tsc", "check the types in web pls"),
            ("read", "the {comp} component looks off, read it"), ("test", "mach mal vitest für web"), ("change", "make the empty state in {file} say 'no results'")),
    "rust": (("test", "cargo test the cli pls"), ("lint", "clippy on hafenctl"), ("read", "read {file} and tell me how sync decides what changed"),
             ("build", "rebuild hafenctl"), ("build", "check the cli still builds after the serde bump")),
    "infra": (("plan", "terraform plan for staging, don't apply"), ("validate", "validate the terraform in {dir}"), ("read", "whats in {file}"),
              ("validate", "fmt check on infra/"), ("read", "what node pools do we have in staging")),
    "git": (("git", "git status?"), ("git", "show me the diff"), ("git", "whats the last few commits"), ("commit", "commit that, something like '{msg}'"),
            ("git", "push my branch (not main)"), ("git", "rebase on main pls"), ("git", "any open prs from kai?"), ("git", "check ci on my branch")),
    "deps": (("deps", "what does pnpm why say about {npm}"), ("deps", "go mod graph for {svc}, whats pulling in {dep}"),
             ("deps", "are we on the latest {crate}?"), ("deps", "which {dep} does {svc} resolve"), ("deps", "whats running locally in docker")),
    "docs": (("docs", "look up the pgxpool docs for MaxConns"), ("docs", "what does the vitest config say about pool"), ("docs", "look up E0502 quickly"),
             ("docs", "check the terraform docs for node_count"), ("docs", "golangci docs for errcheck pls"), ("docs", "pnpm workspace docs, the workspace: protocol")),
}
DONE = {
    "test": ("Done: all green.", "All packages pass; nothing flaky this time.", "Green. The slowest package is the one with the test containers.",
             "Tests pass, see above."),
    "lint": ("Fixed; the linter is clean now.", "Clean now. The remaining warnings were pre-existing and I left them.", "Lint is green."),
    "rename": ("Renamed everywhere; it builds.", "Done, renamed in the files above and the build passes."),
    "search": ("Only used inside the service, see the hits above.", "Two call sites, both above; nothing outside."),
    "read": ("See above: it retries with exponential backoff, capped by the constant at the top.", "Summary: the file wraps every error with the operation name; one place drops the cause, see above.",
             "It refetches on every page change; that's the flicker you see.", "That's the one: it compares revisions per target."),
    "change": ("Done; the change is small, see the edit above.", "Changed and the tests still pass."),
    "build": ("Builds fine.", "It compiles; nothing else changed.", "Built, binary is in target/debug."),
    "tsc": ("`tsc` is clean now.", "Fixed the types; the typecheck passes."),
    "plan": ("The plan only changes the node pool, nothing else. Not applied.", "Plan shows one in-place update, see above. I didn't apply."),
    "validate": ("`terraform validate` passes.", "Valid and formatted."),
    "git": ("Tree is clean.", "See above.", "Done.", "Pushed to your branch.", "Rebased, no conflicts.", "CI is running, two jobs done."),
    "commit": ("Committed.", "Committed, see the sha above."),
    "deps": ("See above: it comes in through the router.", "That's the one, via grpc.", "We're one minor behind; nothing urgent.", "See the tree above."),
    "docs": ("Summarized above: the default is the greater of 4 and the CPU count.", "Per the docs: threads by default, forks as the alternative.",
             "E0502 is the immutable-then-mutable borrow; see above.", "node_count can change in place; machine_type forces a replacement.", "See above."),
}
NOTES = {"Read": ("Let me read the file first.", None, None, "Reading it."), "Grep": ("Searching for usages.", None, None),
         "Glob": (None, "Finding the files."), "Edit": (None, "Fixing that.", None, "Making the change."),
         "Bash": ("Running it now.", None, "Checking.", None, "One more run to confirm."), "TodoWrite": (None,), "WebFetch": ("Checking the docs.", None),
         "Write": (None,)}
RENAMES = (("OrderRepo", "OrderStore"), ("tenantID", "tenantId"), ("NewPSP", "NewPSPClient"), ("fetchRows", "loadRows"),
           ("retryMax", "maxRetries"), ("SyncOpts", "SyncArgs"))
PATTERNS = {"go": ("ErrNotFound", "context.WithTimeout", "X-Tenant-ID", "retryAttempts", "pageSize", "defaultPort", "QueryRow", "writeJSON"),
            "web": ("formatMoney", "useState", "pageSize", "tenantId", "Badge", "api.get"),
            "rust": ("ApiClient::new", "dry_run", "pending", "bail!", "Config"), "infra": ("node_count", "machine_type", "google_pubsub_topic", "tier")}


def _note(rng: random.Random, name: str) -> str | None:
    return _pick(rng, NOTES[name])


class _Turn:
    """One routine turn of his: what he asks and the calls the agent makes for it, in a sensible order."""

    def __init__(self, b: _Builder, topic: str) -> None:
        self.b, self.rng, self.topic = b, b.rng, topic
        self.svc = _pick(self.rng, SVCS)
        self.files = GO_FILES[self.svc] if topic == "go" else TOPIC_FILES.get(topic) or ALL_GO
        self.code = topic if topic in TOPIC_FILES else _pick(self.rng, ("go", "go", "web", "rust", "infra"))
        self.a, self.bb = _pick(self.rng, RENAMES)
        self.intent, self.text = _pick(self.rng, ASKS[topic])
        self.failed = False

    def ask(self) -> str:
        rng = self.rng
        text = _put(_typo(rng, self.text), svc=self.svc, a=self.a, b=self.bb, file=_pick(rng, self.files), comp=_pick(rng, TS_COMPONENTS),
                    dir=_pick(rng, ("infra/envs/staging", "infra/modules/gke")), msg=_pick(rng, COMMIT_SUBJECTS),
                    npm=_pick(rng, NPM_DEPS)[0], dep=_pick(rng, GO_DEPS)[0], crate=_pick(rng, CRATES)[0])
        if rng.random() < 0.15:
            text = f"{_pick(rng, GERMAN_BITS)}. {text}"
        return text

    def done(self) -> str:
        if self.failed:
            return _pick(self.rng, ("Fixed: the test expected the old behaviour; it passes now.", "That one was the fixture, not the code. Green now.",
                                    "Fixed the nil check; all green."))
        return _pick(self.rng, DONE[self.intent])

    def failing(self) -> Call:
        """A first run that fails on a routine test (not a planted one): a look-alike of the planted failures."""
        rng, b = self.rng, self.b
        if self.code not in ("go", "web"):
            return self.run()
        self.failed = True
        if self.code == "web":
            comp = _pick(rng, ("OrderList", "InvoiceTable"))
            tf = f"src/features/{'orders' if comp == 'OrderList' else 'invoices'}/__tests__/{comp}.test.tsx"
            case = _pick(rng, TS_CASES)
            exp, got = _pick(rng, (("paid", "open"), ("2 / 7", "1 / 7"), ("1.234,56 €", "1234.56 €")))
            block = ["⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯", "", f" FAIL  {tf} > {comp} > {case}",
                     f"AssertionError: expected '{got}' to be '{exp}' // Object.is equality", "", "- Expected", "+ Received", "",
                     f"- {exp}", f"+ {got}", "", f" ❯ {tf}:{rng.randint(20, 90)}:31"]
            return ("Bash", {"command": "pnpm -C web vitest run", "description": "Run the web tests"}, vitest_out(rng, b.size(), block, tf))
        svc = self.svc if self.code == "go" else "orders"
        name = _go_test_name(rng, svc)
        f = _pick(rng, [x for x in GO_FILES[svc] if x.endswith("_test.go")] or list(GO_FILES[svc]))
        if rng.random() < 0.3:
            lines = [f"=== RUN   {name}", "--- FAIL: " + name + f" (0.{rng.randint(0, 99):02d}s)",
                     "panic: runtime error: invalid memory address or nil pointer dereference [recovered]",
                     "\tpanic: runtime error: invalid memory address or nil pointer dereference",
                     f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x{_hex(rng, 2)} pc=0x{_hex(rng, 6)}]", ""] + goroutine_trace(rng, svc, 4)
        else:
            lines = [f"=== RUN   {name}", f"    {f.rsplit('/', 1)[1]}:{rng.randint(20, 300)}: got {rng.randint(0, 9)} rows, want {rng.randint(10, 20)}",
                     f"--- FAIL: {name} (0.{rng.randint(0, 99):02d}s)"]
        return ("Bash", {"command": f"go test -v ./services/{svc}/...", "description": "Run the service tests"},
                go_test_out(rng, b.size(), svc, True, lines))

    def steps(self, k: int) -> list[Callable[[], Call]]:
        """``k`` calls for what he asked: looking around first, changing in the middle, running at the end."""
        rng, i = self.rng, self.intent
        look = lambda: _pick(rng, (self.read, self.read, self.grep, self.grep, self.glob))  # noqa: E731
        middle = lambda: _pick(rng, (self.read, self.edit, self.edit, self.grep))  # noqa: E731
        if i in ("git", "commit"):
            return [self.git for _ in range(k - 1)] + [self.commit if i == "commit" else self.git]
        if i == "deps":
            return [self.deps] + [_pick(rng, (self.deps, self.read)) for _ in range(k - 1)]
        if i == "docs":
            return [self.webfetch] + [_pick(rng, (self.read, self.grep, self.webfetch)) for _ in range(k - 1)]
        if i in ("read", "search"):
            first = self.read if i == "read" else self.grep
            return [first] + [look() for _ in range(k - 1)]
        if i in ("lint", "tsc"):
            if k == 1:
                return [lambda: self.run(clean=False)]
            return [lambda: self.run(clean=False)] + [middle() for _ in range(k - 2)] + [lambda: self.run(clean=True)]
        if i in ("rename", "change"):
            if k == 1:
                return [self.edit]
            return [self.grep if i == "rename" else self.read] + [middle() for _ in range(k - 2)] + [self.run]
        # test, build, plan, validate
        if k >= 3 and rng.random() < 0.6:
            return [self.failing] + [look() for _ in range(k - 3)] + [self.todo if rng.random() < 0.3 else self.edit, self.run]
        return [look() for _ in range(k - 1)] + [self.run]

    def read(self) -> Call:
        rng, b = self.rng, self.b
        path = _pick(rng, self.files if rng.random() < 0.85 else CONF_FILES)
        lines = b.file(path)
        want = b.size(3000) // 46
        args: dict[str, Any] = {"file_path": f"{ROOT}/{path}"}
        if len(lines) > want + 20:
            start = rng.randrange(0, len(lines) - want)
            args.update(offset=start + 1, limit=want)
            return ("Read", args, _numbered(lines[start:start + want], start + 1))
        return ("Read", args, _numbered(lines))

    def grep(self) -> Call:
        """ripgrep in content mode: ``path:line:text`` for the lines that have the pattern."""
        rng, b = self.rng, self.b
        code = self.code
        pattern = self.a if self.intent in ("rename", "search") else _pick(rng, PATTERNS[code])
        limit = b.size(1600, hi=9000)
        hits: list[str] = []
        n = 0
        files = list(TOPIC_FILES[code])
        rng.shuffle(files)
        for path in files:
            for i, line in enumerate(b.file(path)):
                if pattern in line:
                    hits.append(f"{path}:{i + 1}:{line}")
                    n += len(hits[-1]) + 1
            if n >= limit:
                break
        where = {"go": "services", "web": "web", "rust": "tools/hafenctl", "infra": "infra"}[code]
        args = {"pattern": pattern, "path": where, "output_mode": "content", "-n": True}
        return ("Grep", args, "\n".join(hits) if hits else "No matches found")

    def glob(self) -> Call:
        rng = self.rng
        key = self.code
        pat = _pick(rng, {"go": ("services/**/*_test.go", f"services/{self.svc}/**/*.go"), "web": ("web/src/**/*.tsx", "web/**/*.test.ts*"),
                          "rust": ("tools/hafenctl/src/**/*.rs",), "infra": ("infra/**/*.tf",)}[key])
        pool = TOPIC_FILES[key]
        if pat.endswith("_test.go") or ".test." in pat:
            pool = tuple(f for f in pool if "_test.go" in f or ".test." in f)
        elif pat.startswith("services/") and key == "go":
            pool = GO_FILES[self.svc]
        files = sorted(rng.sample(pool, min(len(pool), rng.randint(3, 14))))
        return ("Glob", {"pattern": pat}, "\n".join(f"{ROOT}/{f}" for f in files) or "No files found")

    def edit(self) -> Call:
        rng, b = self.rng, self.b
        path = _pick(rng, self.files)
        lines = b.file(path)
        i = rng.randrange(len(lines))
        for _ in range(20):
            if len(lines[i].strip()) > 8:
                break
            i = rng.randrange(len(lines))
        old = lines[i]
        new = old.replace(self.a, self.bb) if self.a in old else old.rstrip() + _pick(rng, ("  // checked", " // TODO(jonas): revisit", " // see HFN-1" + str(rng.randint(100, 999))))
        lines[i] = new
        lo = max(0, i - 5)
        snippet = _numbered(lines[lo:i + 6], lo + 1)
        return ("Edit", {"file_path": f"{ROOT}/{path}", "old_string": old.strip(), "new_string": new.strip()},
                f"The file {ROOT}/{path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{snippet}")

    def todo(self) -> Call:
        rng = self.rng
        items = rng.sample((f"Run {self.svc} tests", "Fix lint fallout", f"Rename {self.a} to {self.bb}", "Update CHANGELOG",
                            "Check CI on the branch", "Typecheck web/", "Clippy on hafenctl", "Plan staging terraform"), rng.randint(2, 5))
        todos = [{"content": t, "status": _pick(rng, ("pending", "in_progress", "completed")), "activeForm": t + " (working)"} for t in items]
        return ("TodoWrite", {"todos": todos}, TODO_RESULT)

    def webfetch(self) -> Call:
        page = _pick(self.rng, DOC_PAGES)
        return ("WebFetch", {"url": page[0], "prompt": f"Summarize what this page says about {page[1]}"},
                webfetch_out(self.rng, self.b.size(1500, hi=5000), page))

    def run(self, clean: bool = False) -> Call:
        rng, b, i = self.rng, self.b, self.intent
        code = self.code
        if code == "go":
            if i == "lint":
                cmd = f"golangci-lint run ./services/{self.svc}/..."
                return ("Bash", {"command": cmd, "description": "Lint the service"}, "0 issues." if clean else lint_out(rng, b.size(1800, hi=6000)))
            if i in ("build", "rename", "change") and rng.random() < 0.6:
                return ("Bash", {"command": f"go build ./services/{self.svc}/...", "description": "Build the service"}, "(No content)")
            verbose = rng.random() < 0.7
            cmd = f"go test {'-v ' if verbose else ''}./services/{self.svc}/..."
            return self.bash(cmd, "Run the service tests", lambda: go_test_out(rng, b.size(), self.svc, verbose))
        if code == "web":
            if i == "tsc" or (i in ("rename", "change") and rng.random() < 0.5):
                return ("Bash", {"command": "npx tsc --noEmit -p web/tsconfig.json", "description": "Typecheck web"},
                        "(No content)" if clean or i != "tsc" else tsc_out(rng, b.size(1500, hi=5000)))
            if rng.random() < 0.2:
                return self.bash("pnpm -C web/packages/api-client test", "Run the api-client jest suite", lambda: jest_out(rng, b.size(1500, hi=6000)))
            return self.bash("pnpm -C web vitest run", "Run the web tests", lambda: vitest_out(rng, b.size()))
        if code == "rust":
            mode = "clippy" if i == "lint" else "build" if i == "build" else "test"
            cmd = {"test": "cargo test", "clippy": "cargo clippy -- -D warnings" if clean else "cargo clippy", "build": "cargo build"}[mode]
            cmd = f"cd tools/hafenctl && {cmd}"
            return self.bash(cmd, f"cargo {mode}", lambda: cargo_out(rng, b.size(), "build" if clean else mode))
        d = _pick(rng, ("infra/envs/staging", "infra/envs/prod"))
        if i == "validate":
            return ("Bash", {"command": f"terraform -chdir={d} validate", "description": "Validate terraform"}, "Success! The configuration is valid.\n")
        env = d.rsplit("/", 1)[1]
        return self.bash(f"terraform -chdir={d} plan -no-color -lock=false", "Plan (no apply)", lambda: tf_plan_out(rng, b.size(), env))

    def bash(self, cmd: str, desc: str, make: Callable[[], str]) -> Call:
        """A run; a routine command now and then prints what it printed before."""
        b = self.b
        if cmd in b.routine and self.rng.random() < 0.35:
            return ("Bash", {"command": cmd, "description": desc}, b.routine[cmd])
        out = make()
        b.routine[cmd] = out
        return ("Bash", {"command": cmd, "description": desc}, out)

    def commit(self) -> Call:
        rng = self.rng
        subject = _pick(rng, COMMIT_SUBJECTS)
        return ("Bash", {"command": f"git commit -am \"{subject}\"", "description": "Commit"},
                f"[{_pick(rng, BRANCHES[1:7])} {_hex(rng, 7)}] {subject}\n {rng.randint(1, 6)} files changed, {rng.randint(1, 90)} insertions(+), {rng.randint(0, 40)} deletions(-)")

    def git(self) -> Call:
        rng, b = self.rng, self.b
        r = rng.random()
        if r < 0.3:
            return ("Bash", {"command": "git status", "description": "Show working tree status"}, git_status_out(rng))
        if r < 0.5:
            oneline = rng.random() < 0.5
            cmd = "git log --oneline -30" if oneline else "git log -8"
            return ("Bash", {"command": cmd, "description": "Recent commits"}, git_log_out(rng, b.size(1500, hi=5000), oneline))
        if r < 0.7:
            return ("Bash", {"command": "git diff", "description": "Show the diff"}, git_diff_out(rng, b.size(1800, hi=7000), b.files))
        if r < 0.85:
            num = str(rng.randint(3000, 4899))
            return ("Bash", {"command": f"gh pr view {num}", "description": "Show the PR"}, gh_pr_out(rng, num, _pick(rng, COMMIT_SUBJECTS)))
        run_id = str(rng.randint(7_000_000_000, 8_999_999_999))
        return ("Bash", {"command": f"gh run view {run_id} --log-failed", "description": "Failed CI log"},
                gh_run_log_out(rng, b.size(2500), job=_pick(rng, ("go", "web", "cli"))))

    def deps(self) -> Call:
        rng, b = self.rng, self.b
        r = rng.random()
        if r < 0.35:
            return ("Bash", {"command": f"cd services/{self.svc} && go mod graph", "description": "Module graph"}, mod_graph_out(rng, b.size(2500)))
        if r < 0.65:
            pkg, ver = _pick(rng, NPM_DEPS)
            return ("Bash", {"command": f"pnpm -C web why {pkg}", "description": "Why is it installed"}, pnpm_why_out(rng, pkg, ver, b.size(1200, hi=4000)))
        if r < 0.75:
            crate, ver = _pick(rng, CRATES)
            return ("Bash", {"command": f"cd tools/hafenctl && cargo tree -i {crate}", "description": "Inverse dependency tree"},
                    f"{crate} v{ver}\n└── hafenctl v0.14.2 ({ROOT}/tools/hafenctl)")
        if r < 0.87:
            return ("Bash", {"command": "docker compose ps", "description": "Local containers"}, compose_ps_out(rng))
        return ("Bash", {"command": f"kubectl --context {_pick(rng, CLUSTERS)} -n {_pick(rng, SVCS)} get pods", "description": "Pods"},
                kubectl_out(rng, b.size(1200, hi=4000)))


TOPICS = ("go", "go", "go", "web", "web", "rust", "infra", "git", "deps", "docs")


def turn(b: _Builder, k: int, parallel: bool = False, topic: str | None = None) -> None:
    """A routine turn: his ask, ``k`` calls (two of them side by side if ``parallel``), the agent's answer."""
    t = _Turn(b, topic or _pick(b.rng, TOPICS))
    b.user(t.ask())
    steps = t.steps(k)
    pair_at = b.rng.randrange(k - 1) if parallel and k >= 2 else -1
    j = 0
    while j < k:
        if j == pair_at:
            calls = [steps[j](), steps[j + 1]()]
            j += 2
        else:
            calls = [steps[j]()]
            j += 1
        b.act(calls, _note(b.rng, calls[0][0]))
    b.say(t.done())


def chat(b: _Builder) -> None:
    q, a = _pick(b.rng, CHAT)
    b.user(_typo(b.rng, q))
    b.say(_put(a, svc=_pick(b.rng, SVCS)))


def double(b: _Builder) -> None:
    """He sends two lines in a row before the agent answers."""
    b.user(_typo(b.rng, _pick(b.rng, ("ok", "moment", "wait", "hm"))))
    q, a = _pick(b.rng, CHAT)
    b.user(_typo(b.rng, q))
    b.say(_put(a, svc=_pick(b.rng, SVCS)))


def unit_of(b: _Builder, m: int) -> None:
    """Exactly ``m`` messages (2 or more) of routine work, ending on an answer without calls."""
    if m == 2:
        b.unit(lambda: chat(b))
    elif m == 3:
        b.unit(lambda: double(b))
    elif m % 2 == 0:
        b.unit(lambda: turn(b, (m - 2) // 2))
    else:
        b.unit(lambda: turn(b, (m - 3) // 2 + 1, parallel=True))


def fill(b: _Builder, m: int) -> None:
    """``m`` messages of routine turns (``m`` is 0 or 2 or more): long tool loops in a long session."""
    rng = b.rng
    hi = 2 + 2 * max(1, round(15 * b.scale))
    while m > 0:
        if m <= hi:
            unit_of(b, m)
            return
        behind = b.chars < b.per_message * len(b.msgs)
        if rng.random() < (0.04 if behind else 0.15):
            u = 2
        else:
            u = 2 + 2 * max(1, round(rng.randint(3, 15) * b.scale)) + (1 if rng.random() < 0.3 else 0)
        u = min(u, m - 2)  # what is left is 2 or more
        unit_of(b, u)
        m -= u


# --- what gets planted ---------------------------------------------------------------------------------------------
@dataclass
class Plant:
    """A fact before and while it is placed: its value, its question, and what its episodes need."""

    kind: str
    value: str
    query: str
    stale: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    index: int = -1
    stale_index: int | None = None
    resolved: int | None = None


PLANTED_PEOPLE = ("Henrike Lorenz", "Dariusz Nowak", "Ilse Brandauer", "Fatou Diallo", "Malte Siebert", "Ayşe Korkmaz",
                  "Benedikt Ruhl", "Yara Haddad", "Konstantin Weil", "Mirela Popescu")
PLANTED_HANDLES = ("@hlorenz", "@dnowak-hafen", "@ibrandauer", "@fdiallo", "@msiebert-dev", "@akorkmaz", "@bruhl", "@yhaddad")


def _port(rng: random.Random) -> str:
    return f"{_pick(rng, (52, 53, 54, 55, 56, 57, 58))}{rng.randint(100, 999)}"


def _near(rng: random.Random, text: str, alphabet: str = "0123456789", start: int = 0) -> str:
    """A near miss of ``text``: two of its ``alphabet`` characters (from ``start`` on) swapped, or one changed."""
    spots = [i for i, c in enumerate(text) if c in alphabet and i >= start]
    for _ in range(30):
        if len(spots) >= 2 and rng.random() < 0.6:
            i, j = rng.sample(spots, 2)
            chars = list(text)
            chars[i], chars[j] = chars[j], chars[i]
        else:
            i = _pick(rng, spots)
            chars = list(text)
            chars[i] = _pick(rng, alphabet)
        out = "".join(chars)
        if out != text:
            return out
    raise _Dirty("near miss")


def rules(rng: random.Random) -> list[dict[str, str]]:
    """His standing rules, each in the ways he may say it; ``{v}`` is the value."""
    people = list(PLANTED_PEOPLE)
    handles = list(PLANTED_HANDLES)
    rng.shuffle(people)
    rng.shuffle(handles)
    word = lambda *ws: _pick(rng, ws)  # noqa: E731
    return [
        dict(value=people.pop(), query="Who has to approve a terraform apply against prod?",
             direct="no terraform apply against prod without a go from {v}. ever",
             indirect="prod applies go through {v} here, they own the state buckets",
             pref="i'd rather you pinged {v} before any terraform apply on prod, even the tiny ones",
             cond="if a plan touches infra/envs/prod, stop and get {v}'s ok before anything is applied",
             de="bitte kein terraform apply auf prod ohne ok von {v}",
             doc="Changes under `infra/envs/prod` are applied only after {v} has approved the plan in the PR.",
             point="please don't apply prod changes from your laptop, that's how we lost the node pool last time",
             adopt="agree with the prod apply point. make that a rule: nothing gets applied to prod before {v} has seen the plan",
             ack="Understood: no apply against prod before {v} has approved the plan."),
        dict(value=_port(rng), query="Which port is the Postgres for the integration tests on?",
             direct="integration tests use the postgres on port {v}, never the shared dev db",
             indirect="our test postgres listens on {v} (5432 is the dev db, don't touch it)",
             pref="i'd rather the integration tests hit the throwaway postgres on {v} than anything shared",
             cond="if a test needs postgres, point it at localhost:{v}",
             de="die integrationstests bitte immer gegen die postgres auf port {v} laufen lassen",
             doc="Integration tests connect to the throwaway Postgres on port {v}; never to the shared dev database.",
             point="tests should not talk to the shared dev db, it breaks everyone's data",
             adopt="right about the dev db. from now on integration tests only talk to the postgres on {v}",
             ack="Noted: integration tests go against the Postgres on {v}."),
        dict(value=f"20.{rng.randint(11, 17)}.{rng.randint(0, 9)}", query="Which Node version is pinned everywhere?",
             direct="node stays pinned at {v}. .nvmrc, CI, the dockerfiles, all of it",
             indirect="we're on node {v} everywhere, the CI image too",
             cond="if you touch a Dockerfile under web/, the base image stays on node {v}",
             de="node bleibt auf {v}, bitte nirgends hochziehen",
             doc="Node is pinned to {v} in `.nvmrc`, in CI and in every Dockerfile.",
             point="the node versions drift between CI and the dockerfiles, please pin them",
             adopt="yes to the node pinning. rule: {v} everywhere, no exceptions",
             ack="Got it: Node {v} everywhere."),
        dict(value=people.pop(), query="Who must sign off on a new dependency?",
             direct="no new dependencies without checking with {v} first. go, npm or cargo, doesn't matter",
             indirect="new deps go past {v} here, they do the license review",
             pref="i'd rather you asked {v} before adding any dependency, even a tiny one",
             de="bitte keine neuen Abhängigkeiten ohne Rückfrage bei {v}",
             doc="New third-party dependencies (Go modules, npm packages, crates) need {v}'s sign-off in the PR.",
             point="do we really need another dependency for this? please check with legal before adding deps",
             adopt="fair point on the deps. going forward every new dependency goes past {v} first",
             ack="Understood: any new dependency goes past {v} first."),
        dict(value=f"buf.gen.{word('clients', 'sdk', 'public', 'all')}.yaml", query="Which buf template regenerates the clients after a proto change?",
             direct="after any change under proto/, run `buf generate --template {v}` and commit the output",
             cond="if you touch the proto files regenerate the clients with `buf generate --template {v}`",
             de="wenn du an proto/ was änderst, bitte die clients mit `buf generate --template {v}` neu generieren",
             doc="After any change under `proto/`, regenerate the clients with `buf generate --template {v}` in the same PR.",
             indirect="clients get regenerated with `buf generate --template {v}`, the default template is only for the server stubs",
             ack="Noted: proto changes mean `buf generate --template {v}`."),
        dict(value=f".golangci.{word('strict', 'full', 'release', 'ci-strict')}.yml", query="Which golangci-lint config must pass before work is called done?",
             pref="i'd rather you ran `golangci-lint run -c {v}` before you tell me it's done",
             direct="run golangci-lint with `-c {v}` before you say anything is done",
             indirect="'done' here means `golangci-lint run -c {v}` is clean, not the default config",
             de="bevor du sagst es ist fertig, bitte `golangci-lint run -c {v}` laufen lassen",
             doc="A change is done when `golangci-lint run -c {v}` passes locally.",
             point="please run the linters before asking for review, there were three errcheck hits in here",
             adopt="and yes, lint before review. make it `golangci-lint run -c {v}` every time, that's the rule now",
             ack="Will do: `golangci-lint run -c {v}` before I call anything done."),
        dict(value=f"@hafen/{word('ui-kit', 'primitives', 'design-system', 'elements')}", query="Which package do shared web components go into?",
             indirect="we don't do default exports in web/, and shared components live in {v}, not in the app",
             direct="no default exports in web/. shared components go into {v}",
             de="keine default exports in web/, gemeinsame komponenten kommen nach {v}",
             doc="No default exports in `web/`; shared components live in the `{v}` package.",
             cond="if a component is used in two features, move it to {v}",
             ack="Noted: named exports only, shared components in {v}."),
        dict(value=f"tn_{_hex(rng, 6)}", query="Which tenant is used for tests against the PSP sandbox?",
             direct="use tenant {v} for anything against the psp sandbox, never the demo tenant",
             indirect="the sandbox tenant we test with is {v}, the demo one is for sales",
             cond="if you need to hit the psp sandbox, use tenant {v}",
             de="für die psp sandbox bitte immer tenant {v} nehmen",
             doc="Tests against the PSP sandbox use tenant `{v}`; the demo tenant is reserved for sales.",
             ack="Noted: PSP sandbox tests use tenant {v}."),
        dict(value=f"europe-west3-docker.pkg.dev/hafen-{word('build', 'artifacts', 'ci')}/{word('images', 'containers', 'svc')}",
             query="Which registry do the images get pushed to?",
             direct="images only go to {v}, never docker hub",
             indirect="our images live in {v}",
             de="images bitte nur nach {v} pushen, nie docker hub",
             doc="Container images are pushed to `{v}` only.",
             point="please don't push images to docker hub, we have a registry for that",
             adopt="the registry thing goes for everyone: images only to {v}",
             ack="Got it: images go to {v} only."),
        dict(value=handles.pop(), query="Who must be a reviewer on PRs that touch billing?",
             direct="PRs that touch services/billing need {v} as a reviewer",
             indirect="billing PRs always get {v} on them, they know the ledger",
             cond="if the diff touches services/billing, add {v} as reviewer",
             de="bei änderungen an billing bitte {v} als reviewer eintragen",
             doc="Pull requests touching `services/billing` need a review from {v}.",
             point="someone from the payments side should look at anything in billing",
             adopt="good call on billing reviews. rule from now on: {v} reviews everything in services/billing",
             ack="Noted: {v} reviews billing PRs."),
        dict(value=_port(rng), query="Which local port does the gateway run on?",
             indirect="locally the gateway runs on {v}, 8080 is taken by my other stuff",
             direct="run the gateway on port {v} locally, not 8080",
             de="das gateway lokal bitte auf port {v} starten",
             pref="i'd rather you started the gateway on {v} locally so it doesn't fight with my other stuff",
             doc="Locally the gateway listens on port {v}.",
             ack="Ok: gateway on {v} locally."),
        dict(value=f"agent_ro_{word('stg', 'staging', 'sandbox')}{rng.randint(2, 9)}", query="Which database user does the agent use on staging?",
             direct="when you query the staging db, use the read-only user {v}",
             indirect="your staging db user is {v}, read only",
             de="auf der staging db bitte nur mit dem user {v} arbeiten",
             cond="if you need to look at staging data, connect as {v}",
             doc="Agents and scripts query the staging database as `{v}` (read-only).",
             ack="Noted: staging queries as {v}."),
        dict(value=f"-timeout={_pick(rng, (150, 210, 270, 330, 390, 450))}s", query="Which timeout flag goes on every go test run?",
             direct="go tests always with {v}, the default 10m hides hangs",
             de="go tests bitte immer mit {v}",
             pref="i'd rather you ran the go tests with {v}, the default hides hangs",
             indirect="we run go test with {v} here, same as CI",
             doc="Run Go tests with `{v}`, as CI does.",
             point="this test hung for 10 minutes on CI before it died, we need a shorter timeout",
             adopt="agree with the timeout point. rule: every go test run gets {v}",
             ack="Will do: {v} on every go test run."),
        dict(value=f"#hafen-{word('ci-alerts', 'build-cops', 'ci-triage', 'release-train')}", query="Where to post when CI is red twice in a row?",
             direct="if CI is red twice in a row, post in {v} instead of retriggering",
             de="wenn CI zweimal hintereinander rot ist, bitte in {v} posten statt neu zu starten",
             indirect="red-twice CI goes to {v} here, we don't just retrigger",
             doc="If CI fails twice in a row on the same commit, post in {v} instead of retriggering.",
             ack="Noted: twice red means a post in {v}."),
    ]


CONTRIBUTING = ("Every change goes through a pull request against `main`; nobody pushes to it directly.",
                "Keep PRs under ~400 changed lines where you can; split refactors from behaviour changes.",
                "Go code is formatted with gofumpt, TypeScript with prettier (the repo config, no overrides).",
                "Commit messages follow Conventional Commits with the service as scope: `fix(orders): ...`.",
                "Tests ship with the change: table-driven in Go, Testing Library in web/, unit tests beside the module in Rust.",
                "Secrets never go into the repo, the CI logs or a PR description.",
                "Ask in #hafen-dev before you start anything that touches more than one service.")
ADR = ("Services talk to each other over the internal API only; no service reads another service's tables.",
       "Every table has a `tenant_id` column and every query filters on it.",
       "Money is stored as integer minor units with an ISO currency code, never as floats.",
       "Errors crossing a service boundary are mapped to problem+json responses.",
       "Timeouts are set by the caller; a handler never waits longer than its context.",
       "Background work goes through the outbox table, not through goroutines started in handlers.",
       "Feature work behind a flag is cleaned up within two releases of the flag going to 100%.")


def adopted_doc(rng: random.Random, which: int, rule: dict[str, str]) -> tuple[str, str]:
    """CONTRIBUTING.md or an accepted ADR with his rule among the others, and the words he adopts it with."""
    rules_ = list(CONTRIBUTING if which == 0 else ADR)
    rng.shuffle(rules_)
    rules_.insert(rng.randint(2, 5), rule["doc"])
    numbered = "\n".join(f"{i}. {r}" for i, r in enumerate(rules_, 1))
    if which == 0:
        doc = ("# Contributing to hafen\n\nThanks for helping out. The short version:\n\n## Ground rules\n\n" + numbered +
               "\n\n## Local setup\n\n`make up` starts Postgres, Redis, Jaeger and Mailpit; `make test` runs the Go suites;\n"
               "`pnpm -C web dev` serves the frontend on 5173; `cargo run -p hafenctl -- --help` for the CLI.\n")
        lead = _pick(rng, ("this is our contributing guide, stick to it from now on:", "unser CONTRIBUTING.md, bitte ab jetzt daran halten:",
                           "pasting the CONTRIBUTING.md we agreed on last week. follow it from now on, esp. the ground rules"))
    else:
        doc = (f"# ADR-00{rng.randint(21, 39)}: Service boundaries and shared conventions\n\n- Status: Accepted\n- Date: 2025-03-0{rng.randint(1, 9)}\n"
               "- Deciders: backend guild\n\n## Context\n\nThe services grew their own conventions and the on-call pays for it.\n\n"
               "## Decision\n\n" + numbered + "\n\n## Consequences\n\nExisting services move over as they are touched; new code follows this from day one.\n")
        lead = _pick(rng, ("the ADR got accepted yesterday, follow it from now on:", "das ADR ist durch, ab jetzt gilt das:",
                           "this ADR is accepted, stick to it from now on:"))
    return lead, doc


def corrections(rng: random.Random) -> list[dict[str, Any]]:
    """Values he gives and later corrects: the stale, the value (often a near miss), how he says the stale one, and the
    call the agent makes with either."""
    out: list[dict[str, Any]] = []

    def add(stale: str, value: str, what: str, tell: str, use: Callable[[random.Random, str], Call], query: str) -> None:
        out.append(dict(stale=stale, value=value, what=what, tell=tell, use=use, query=query))

    region = _pick(rng, ("euw3", "euw1", "eun1"))
    s = f"gke-stg-{region}-{rng.randint(10, 98)}"
    add(s, _near(rng, s, start=13), "the staging cluster", "when the branch is green, deploy a preview to {s}",
        lambda r, x: ("Bash", {"command": f"kubectl --context {x} -n previews get deploy", "description": "Preview deployments"},
                      "NAME          READY   UP-TO-DATE   AVAILABLE   AGE\n" + "\n".join(
                          f"{svc}-pr-{r.randint(3000, 4899)}   1/1     1            1           {r.randint(1, 9)}d" for svc in r.sample(SVCS, 4))),
        "Which cluster do staging previews deploy to?")
    minor = _pick(rng, (23, 24))
    p = rng.randint(1, 8)
    add(f"go1.{minor}.{p}", f"go1.{minor}.{_pick(rng, [x for x in range(1, 10) if x != p])}", "the toolchain",
        "bump the toolchain line in go.work to {s}",
        lambda r, x: ("Edit", {"file_path": f"{ROOT}/go.work", "old_string": "toolchain go1.22.2", "new_string": f"toolchain {x}"},
                      f"The file {ROOT}/go.work has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
                      + _numbered(["go 1.22", "", f"toolchain {x}", "", "use ("])),
        "Which Go toolchain should go.work pin?")
    pools = ["--pool=forks", "--pool=vmThreads", "--pool=vmForks"]
    rng.shuffle(pools)
    add(pools[0], pools[1], "the vitest flag", "run the web suite with {s}, threads keep segfaulting on my mac",
        lambda r, x: ("Bash", {"command": f"pnpm -C web vitest run {x}", "description": "Run the web tests"}, vitest_out(r, 1800)),
        "Which vitest pool flag should the web suite run with?")
    s = _port(rng)
    add(s, _near(rng, s, start=1), "the psp mock port", "the psp mock from docker-compose listens on {s}, point the billing tests at it",
        lambda r, x: ("Bash", {"command": f"PSP_BASE_URL=http://localhost:{x} go test ./services/billing/...", "description": "Billing tests against the mock"},
                      go_test_out(r, 1500, "billing", verbose=False)),
        "Which port does the PSP mock listen on?")
    yy, w = _pick(rng, (25, 26)), rng.randint(10, 48)
    s = f"release/{yy}.{w:02d}"
    add(s, f"release/{yy}.{w + _pick(rng, (1, -1)):02d}", "the release branch", "cherry-pick the fix onto {s} once it's merged",
        lambda r, x: ("Bash", {"command": f"git fetch origin && git checkout {x}", "description": "Check out the release branch"},
                      f"Switched to a new branch '{x}'\nbranch '{x}' set up to track 'origin/{x}'."),
        "Which release branch should the fix be cherry-picked onto?")
    res, act = _pick(rng, ("refunds", "payouts", "mandates", "disputes")), _pick(rng, ("capture", "settle", "void", "retry"))
    add(f"/v1/{res}/{{id}}/{act}", f"/v2/{res}/{{id}}/{act}", "the endpoint", "the bug report is about {s}, add a test for it",
        lambda r, x: ("Grep", {"pattern": x.replace("{id}", "\\{id\\}"), "path": "services", "output_mode": "content", "-n": True},
                      f"services/billing/internal/http/routes.go:{r.randint(30, 90)}:\tr.Post(\"{x}\", h.{act}{res.capitalize()[:-1]})"),
        "Which endpoint is the bug report about?")
    s = f"hafen-stg-{_hex(rng, 4)}"
    add(s, _near(rng, s, "0123456789abcdef", 10), "the project", "the exports bucket is in project {s}, check what's in there",
        lambda r, x: ("Bash", {"command": f"gcloud storage buckets list --project {x} --format='value(name)'", "description": "List buckets"},
                      "\n".join(f"hafen-{b}-{r.randint(100, 999)}" for b in ("exports", "tfstate", "backups", "web-assets"))),
        "Which GCP project holds the exports bucket?")
    s = f"pg-orders-ro-{rng.randint(10, 98)}"
    add(s, _near(rng, s), "the replica", "run the slow query against {s}, not the primary",
        lambda r, x: ("Bash", {"command": f"psql -h {x} -U readonly -d orders -c 'EXPLAIN ANALYZE SELECT * FROM orders WHERE tenant_id = $1 ORDER BY created_at DESC LIMIT 50'",
                               "description": "Explain on the replica"},
                      f" Limit  (cost=0.56..{r.randint(100, 999)}.12 rows=50 width=412) (actual time=0.041..{r.uniform(1, 90):.3f} rows=50 loops=1)\n"
                      f"   ->  Index Scan using orders_tenant_created_idx on orders  (cost=0.56..{r.randint(10000, 99999)}.40 rows={r.randint(1000, 90000)} width=412)\n"
                      f" Planning Time: 0.{r.randint(100, 999)} ms\n Execution Time: {r.uniform(1, 90):.3f} ms"),
        "Which replica should the slow query run against?")
    pair = _pick(rng, (("protos-go", "protos-ts"), ("schemas-core", "schemas-edge"), ("contracts-v1", "contracts-v2")))
    a, c = (pair if rng.random() < 0.5 else pair[::-1])
    add(f"hafenlabs/{a}", f"hafenlabs/{c}", "the repo", "the generated types come from {s}, check their last release",
        lambda r, x: ("Bash", {"command": f"gh release list -R {x} --limit 5", "description": "Releases"},
                      "\n".join(f"v2.{m}.{r.randint(0, 9)}\t{'Latest' if i == 0 else ''}\tv2.{m}\t2025-0{5 - i}-{r.randint(10, 28)}T09:12:44Z"
                                for i, m in enumerate(sorted(r.sample(range(3, 30), 5), reverse=True)))),
        "Which repository do the generated types come from?")
    feats = ["gcs-sync", "gcs-async", "s3-sync", "s3-stream"]
    rng.shuffle(feats)
    add(f"--features {feats[0]}", f"--features {feats[1]}", "the feature", "build the cli with {s} for the release",
        lambda r, x: ("Bash", {"command": f"cd tools/hafenctl && cargo build --release {x}", "description": "Release build"},
                      cargo_out(r, 1200, "build")),
        "Which cargo feature should the release build of the CLI use?")
    s = f"stg-eu-{rng.randint(2, 9)}"
    add(s, _near(rng, s), "the workspace", "select the {s} workspace before you plan",
        lambda r, x: ("Bash", {"command": f"terraform -chdir=infra/envs/staging workspace select {x}", "description": "Select workspace"},
                      f"Switched to workspace \"{x}\"."),
        "Which terraform workspace is the staging plan made in?")
    s = f"orders-events-sub-v{rng.randint(2, 9)}"
    add(s, _near(rng, s), "the subscription", "the new consumer should read from {s}",
        lambda r, x: ("Bash", {"command": f"gcloud pubsub subscriptions describe {x} --project hafen-stg", "description": "Describe subscription"},
                      f"ackDeadlineSeconds: {r.choice((10, 20, 60))}\nexpirationPolicy: {{}}\nmessageRetentionDuration: 604800s\n"
                      f"name: projects/hafen-stg/subscriptions/{x}\ntopic: projects/hafen-stg/topics/orders-events"),
        "Which subscription should the new consumer read from?")
    s = f"tn_load_{_hex(rng, 4)}"
    add(s, _near(rng, s, "0123456789abcdef", 8), "the load test tenant", "seed the load test data into {s}",
        lambda r, x: ("Bash", {"command": f"hafenctl db seed --tenant {x} --orders 5000", "description": "Seed load-test data"},
                      f"seeding tenant {x}\n  orders        5000\n  order_items   {r.randint(9000, 20000)}\n  invoices      {r.randint(3000, 5000)}\ndone in {r.uniform(4, 40):.1f}s"),
        "Which tenant gets the load-test data?")
    return out


AFTER_USE = {"the staging cluster": "Preview deployments on {x} are above; I'll deploy once CI is green.", "the toolchain": "go.work now pins {x}.",
             "the vitest flag": "The web suite ran with {x}: green.", "the psp mock port": "Billing tests pass against the mock on {x}.",
             "the release branch": "Checked out {x}; I'll cherry-pick once the fix is merged.", "the endpoint": "Found the route for {x}; the test is next.",
             "the project": "The buckets in {x} are above.", "the replica": "The plan from {x} is above; it uses the tenant index.",
             "the repo": "The last releases of {x} are above.", "the feature": "The release build with {x} is done.",
             "the workspace": "Workspace {x} selected.", "the subscription": "{x} exists and reads from orders-events.",
             "the load test tenant": "Seeded {x}."}
CORRECT = ("wait no, {what} is {v} not {s}", "ugh i meant {v}. not {s}", "scratch that, {what} is {v}, not {s}",
           "nee, falsch: {what} ist {v}, nicht {s}", "MID", "the other one: {v}. i mixed them up earlier",
           "no, the other one, the one i mentioned yesterday: {v}",
           "correction: {v} (not {s}), sorry")
MID_OPEN = ("ok the lint fallout looks fine, thanks.", "read through the diff, looks ok.", "tests look good.",
            "passt soweit.", "ok that answers it.")
MID_CLOSE = ("can you also rerun the {svc} tests after?", "and then let's look at the changelog.", "after that: git status pls.",
             "dann weiter mit {svc}.", "then commit.")

DECISIONS = (("the query layer in orders", ("sqlc", "sqlboiler", "go-jet")),
             ("server state in web/", ("TanStack Query", "RTK Query", "SWR")),
             ("form validation in web/", ("valibot", "zod", "arktype")),
             ("feature flags", ("OpenFeature with flagd", "Unleash", "GrowthBook")),
             ("the rpc between gateway and orders", ("connect-go", "twirp", "grpc-gateway")),
             ("db migrations", ("goose", "dbmate", "golang-migrate")),
             ("the http client in hafenctl", ("ureq", "isahc", "attohttpc")),
             ("error types in hafenctl", ("thiserror", "snafu", "miette")),
             ("the e2e suite", ("Playwright", "Cypress", "WebdriverIO")),
             ("the orders pgx pool", ("pool_max_conns={a}", "pool_max_conns={b}", "pool_max_conns={c}")),
             ("the read cache in inventory", ("ristretto", "otter", "bigcache")),
             ("release tooling", ("release-please", "changesets", "goreleaser")),
             ("styling in web/", ("vanilla-extract", "Panda CSS", "CSS Modules")),
             ("the task runner for web/", ("turborepo", "moonrepo", "wireit")))
DECIDE = ("ok let's go with {v} for {topic}", "decided: {v} for {topic}. {why}", "lass uns {v} nehmen für {topic}, {why_de}",
          "fine, {v} it is for {topic}", "{topic}: we go with {v}. {why}", "after looking at both, {v} for {topic}")
REVISE = ("actually we're not doing {s} for {topic}, {why}. {v} instead", "change of plans on {topic}: {v}, not {s}. {why}",
          "hab nochmal drüber nachgedacht: {v} statt {s} für {topic}", "scrap {s}. {topic} goes with {v}, {why}")
WHY = ("the migration is too big for this sprint", "lena's team already runs it", "it's the smaller dependency",
       "the benchmark was clear", "better type inference", "less magic", "it's what the platform team supports")
WHY_DE = ("ist einfach weniger magie", "das platform-team supportet das", "kleinere abhängigkeit", "passt besser zum sprint")


def plan_steps(rng: random.Random) -> list[tuple[str, str, str]]:
    """(the distinctive step as he says it, its value, what the question asks about)."""
    word = lambda *ws: _pick(rng, ws)  # noqa: E731
    tbl, yy = word("orders", "invoices", "payments", "reservations"), rng.randint(2019, 2023)
    flag = f"ff_{word('checkout', 'invoices', 'tenant', 'search')}_{word('split', 'async', 'preview', 'bulk')}_v{rng.randint(2, 9)}"
    mig = f"{rng.randint(40, 99):04d}_{word('add_fulfilment_state', 'ledger_currency_minor', 'tenant_quota', 'order_notes')}"
    orval = f"orval 6.{rng.randint(20, 31)}.{rng.randint(0, 9)}"
    rps = f"{rng.randint(15, 90) * 10} rps"
    col = word("ledger_entries.currency_minor", "orders.fulfilled_at", "invoices.dunning_level", "reservations.expires_at")
    topic = f"webhooks-{word('fanout', 'retry', 'priority', 'bulk')}-v{rng.randint(2, 9)}"
    sa = f"sa-{word('billing', 'notify', 'orders')}-{word('exporter', 'mailer', 'reconciler')}"
    idx = f"idx_{word('orders', 'invoices', 'deliveries')}_{word('tenant_created_at', 'status_due_at', 'tenant_external_ref')}"
    tag = f"hafenctl-v0.{rng.randint(15, 19)}.{rng.randint(0, 9)}"
    repo = f"hafenlabs/{word('dashboard', 'billing-ui', 'ops-scripts')}-legacy"
    pool = f"{word('highmem', 'batch', 'reporting')}-pool-{rng.randint(2, 9)}"
    env = f"HAFEN_{word('LEGACY', 'OLD', 'V1')}_{word('PDF_RENDERER', 'TAX_ROUNDING', 'WEBHOOK_SIGNER')}"
    return [(f"drop the {tbl}_legacy_{yy} table", f"{tbl}_legacy_{yy}", "the legacy table to drop"),
            (f"delete the {flag} flag and its dead branches", flag, "the feature flag to delete"),
            (f"split migration {mig} into two", mig, "the migration to split"),
            (f"regenerate the api client with {orval}", orval, "the generator version for the api client"),
            (f"raise the gateway rate limit for batch tenants to {rps}", rps, "the new gateway rate limit"),
            (f"backfill {col} in batches of {rng.randint(2, 9)}k", col, "the column to backfill"),
            (f"move the webhook deliveries onto the {topic} topic", topic, "the topic for webhook deliveries"),
            (f"rotate the {sa} key", sa, "the service account whose key gets rotated"),
            (f"add {idx} concurrently", idx, "the index to add"),
            (f"cut the {tag} tag", tag, "the CLI tag to cut"),
            (f"archive {repo}", repo, "the repository to archive"),
            (f"move the reporting jobs to the {pool} node pool", pool, "the node pool for reporting jobs"),
            (f"remove {env} from all deployments", env, "the environment variable to remove")]


GENERIC_STEPS = ("bump the go version", "fix the lint fallout", "the flaky test in orders", "the changelog", "regenerate the mocks",
                 "update the readme", "rerun the e2e suite", "clean up the TODOs in gateway", "tag a release",
                 "write the migration notes", "get kai to review", "update the runbook")
PLAN_FORMS = ("plan for today: first {a}, then {b}, then {c}, and last {d}",
              "ok so: {a}. after that {b}, then {c}. {d} at the very end",
              "here's the order i want:\n1) {a}\n2) {b}\n3) {c}\n4) {d}",
              "erst {a}, dann {b}, danach {c}, und zum schluss {d}",
              "tomorrow's plan, keep it in the todo list: {a} -> {b} -> {c} -> {d}",
              "for the rest of the week:\n- {a}\n- {b}\n- {c}\n- {d}")

FILE_JOBS = (("add a reconcile job to the billing ledger that matches psp payouts to entries", "services/billing/internal/ledger/reconcile.go"),
             ("write tests for the outbox dispatcher in orders", "services/orders/internal/outbox/dispatcher_test.go"),
             ("add a token bucket limiter to the gateway, per tenant", "services/gateway/internal/ratelimit/token_bucket.go"),
             ("add a dunning reminder template to notify", "services/notify/internal/templates/dunning_reminder.go"),
             ("add an aging chart to the invoices page", "web/src/features/invoices/InvoiceAgingChart.tsx"),
             ("write a debounced search hook for the orders list", "web/src/hooks/useDebouncedSearch.ts"),
             ("add a date range picker to the ui package", "web/packages/ui/src/DateRangePicker.tsx"),
             ("add a test for the order timeline", "web/src/features/orders/__tests__/OrderTimeline.test.tsx"),
             ("add a rotate-keys subcommand to hafenctl", "tools/hafenctl/src/cmd/rotate_keys.rs"),
             ("split the profile handling out of the hafenctl config module", "tools/hafenctl/src/config/profile.rs"),
             ("add a terraform module for a cloudsql read replica", "infra/modules/cloudsql_replica/main.tf"),
             ("add a dead letter topic for the orders subscription in staging", "infra/envs/staging/pubsub_dlq.tf"),
             ("add a CI workflow for the web e2e suite", ".github/workflows/web-e2e.yml"),
             ("write the ADR for the outbox dispatch", "docs/adr/{n}-outbox-dispatch.md"),
             ("add a migration for the fulfilment state", "services/orders/migrations/{n}_add_fulfilment_state.sql"),
             ("add a stock snapshot exporter to inventory", "services/inventory/internal/snapshot/exporter.go"))


def file_content(rng: random.Random, path: str) -> str:
    if path.endswith(".sql"):
        return ("-- up\nALTER TABLE orders ADD COLUMN fulfilment_state text NOT NULL DEFAULT 'pending';\n"
                "CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_fulfilment_state_idx ON orders (tenant_id, fulfilment_state);\n\n"
                "-- down\nDROP INDEX IF EXISTS orders_fulfilment_state_idx;\nALTER TABLE orders DROP COLUMN fulfilment_state;\n")
    if path.endswith(".md"):
        return ("# Outbox dispatch\n\n- Status: Proposed\n\n## Context\n\nHandlers write events to the outbox table in the same transaction "
                "as the state change. A dispatcher publishes them.\n\n## Decision\n\nOne dispatcher per service, polling with "
                "`SELECT ... FOR UPDATE SKIP LOCKED`, batch size 100, publishing to Pub/Sub.\n\n## Consequences\n\nAt-least-once "
                "delivery; consumers must be idempotent.\n")
    if path.endswith(".yml"):
        return ("name: web-e2e\non:\n  pull_request:\n    paths: ['web/**']\njobs:\n  e2e:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n      - uses: pnpm/action-setup@v4\n      - run: pnpm -C web install --frozen-lockfile\n"
                "      - run: pnpm -C web build\n      - run: pnpm -C web test:e2e\n")
    return "\n".join(file_lines(rng, path, rng.randint(40, 110)))


PLANTED_NOUNS = ("Reconcile", "Settlement", "Dunning", "Chargeback", "Payout", "Backorder", "Snapshot", "Mandate", "Proration")
PLANTED_CONDS = ("_DuplicateEntrySameDay", "_PartialCaptureRounding", "_CrossTenantLeak", "_LeapDayCutoff", "_ZeroAmountLine",
                 "_StaleCursor", "_IdempotentReplay", "_ClockSkew", "_FullRebuild", "_NegativeBalance")


def _planted_test(rng: random.Random) -> str:
    """A failing test's name (the slowest test a finding names is drawn from the other conditions)."""
    return f"Test{_pick(rng, PLANTED_NOUNS)}{_pick(rng, PLANTED_CONDS[:5])}"


def _insert(text: str, rng: random.Random, lines: list[str], lo: float = 0.2, hi: float = 0.8) -> str:
    rows = text.split("\n")
    at = rng.randint(int(len(rows) * lo), max(int(len(rows) * lo), int(len(rows) * hi)))
    rows[at:at] = lines
    return "\n".join(rows)


def findings(rng: random.Random) -> list[dict[str, Any]]:
    """Questions he asks and the one tool-output line that answers each (``{v}`` in ``line``)."""
    out: list[dict[str, Any]] = []

    def add(value: str, query: str, ask: str, topic: str, call: tuple[str, dict[str, Any]], make: Callable[[_Builder, str], str],
            quote: str, plain: str) -> None:
        out.append(dict(value=value, query=query, ask=ask, topic=topic, call=call, make=make, quote=quote, plain=plain))

    v = f"golang.org/x/net v0.{rng.randint(23, 29)}.{rng.randint(0, 3)}"
    add(v, "Which golang.org/x/net version does the orders service actually build with?",
        "which x/net does orders actually build with? dependabot keeps complaining", "deps",
        ("Bash", {"command": "cd services/orders && go list -m all | grep golang.org/x", "description": "Resolved x/ modules"}),
        lambda b, v: "\n".join(sorted([f"golang.org/x/{m} v0.{b.rng.randint(5, 24)}.0" for m in ("crypto", "sync", "text", "sys", "mod", "term", "time")] + [v])),
        "It builds with `{v}`: MVS picks the newest requirement, which comes in through grpc, not the go.mod line.",
        "See above, the `go list` line is the one that counts; our own require in go.mod is older.")
    pkg = _pick(rng, ("react-hook-form", "date-fns", "@floating-ui/react", "immer"))
    v = f"{pkg} {rng.randint(2, 7)}.{rng.randint(10, 60)}.{rng.randint(0, 9)}"
    add(v, f"Which version of {pkg} does web/ actually resolve?", f"which {pkg} do we actually resolve in web/? the fix is supposedly in a newer one",
        "deps", ("Bash", {"command": f"pnpm -C web why {pkg}", "description": "Why is it installed"}),
        lambda b, v: _insert(b.draw(lambda: pnpm_why_out(b.rng, pkg, f"{b.rng.randint(1, 9)}.{b.rng.randint(0, 9)}.{b.rng.randint(0, 9)}", b.size(1500, hi=4000))),
                          b.rng, ["dependencies:", f"@hafen/ui 0.0.0 -> {ROOT}/web/packages/ui", f"└── {v}"], 0.3, 0.9),
        "It resolves to `{v}` through @hafen/ui; the other entries above are nested copies.",
        "That's the one, the entry under @hafen/ui. The nested ones don't end up in the app bundle.")
    port = _pick(rng, (5432, 6432, 6379))
    v = f"dial tcp 10.{rng.randint(16, 250)}.{rng.randint(0, 255)}.{rng.randint(2, 250)}:{port}: connect: connection refused"
    run_id = str(rng.randint(7_000_000_000, 8_999_999_999))
    add(v, "What was the root cause of the failed go job on the PR?", "why did the go job fail on my pr? looks random", "git",
        ("Bash", {"command": f"gh run view {run_id} --log-failed", "description": "Failed CI log"}),
        lambda b, v: b.draw(lambda: gh_run_log_out(b.rng, b.size(3500), ["    pg_test.go:41: connect to test db: " + v,
                                                                       f"--- FAIL: {_go_test_name(b.rng, 'orders')} (5.0{b.rng.randint(0, 9)}s)"], job="go"), (v,)),
        "Root cause: `{v}`; the postgres service container never came up on that runner, the test failure is fallout.",
        "See above: the connection refused line. Everything after it is fallout.")
    v = f"poll_interval: {rng.randint(3, 39) * 50}ms"
    add(v, "What is the outbox poll interval in the prod config?", "what's the outbox poll interval in prod?", "go",
        ("Read", {"file_path": f"{ROOT}/services/orders/config/prod.yaml"}),
        lambda b, v: _numbered(b.draw(lambda: "\n".join(conf_lines(b.rng, "services/orders/config/prod.yaml"))).split("\n")
                            + ["outbox:", "  batch_size: 100", "  " + v, "  lease: 30s"]),
        "Prod polls with `{v}` (batch size 100).", "That's the one, under `outbox:` at the end of the file.")
    v = f"Test{_pick(rng, PLANTED_NOUNS)}{_pick(rng, PLANTED_CONDS[5:])}"
    add(v, "Which Go test is the slowest in the test job?", "why is the go test job so slow now", "go",
        ("Bash", {"command": "go test ./services/... -json 2>/dev/null | gotestsum tool slowest --threshold 2s", "description": "Slowest tests"}),
        lambda b, v: f"{MODULE}/services/inventory/internal/stock {v} {b.rng.uniform(60, 140):.2f}s\n" + b.draw(lambda: "\n".join(
            f"{_pkg_of(_pick(b.rng, GO_FILES[s]))} {_go_test_name(b.rng, s)} {t:.2f}s"
            for s, t in sorted(((_pick(b.rng, SVCS), b.rng.uniform(2, 14)) for _ in range(b.rng.randint(12, 40))), key=lambda x: -x[1]))),
        "`{v}` alone takes over a minute; it rebuilds the whole snapshot per case.",
        "See above, the first line. Everything else is under 15s.")
    name = f"orders_{_pick(rng, ('replica_eu', 'reporting', 'analytics_ro'))}"
    v = f"# google_sql_database_instance.{name} must be replaced"
    add(v, "Which resource does the staging plan want to replace?", "why does the staging plan want to recreate a db??", "infra",
        ("Bash", {"command": "terraform -chdir=infra/envs/staging plan -no-color -lock=false", "description": "Plan (no apply)"}),
        lambda b, v: b.draw(lambda: tf_plan_out(b.rng, b.size(), "staging", [
            "  " + v, f'-/+ resource "google_sql_database_instance" "{name}" {{',
            '      ~ database_version = "POSTGRES_15" -> "POSTGRES_16" # forces replacement', "        # (9 unchanged attributes hidden)", "    }", ""]), (v,)),
        "`{v}`: the database_version bump forces a replacement. Don't apply that as is.",
        "That's the one, the -/+ block: a version bump on that instance forces a replacement.")
    v = f"{rng.randint(100000, 999999)} ns/op"
    add(v, "How fast is the PDF invoice render benchmark now?", "how fast is the pdf render now after tobias' change", "go",
        ("Bash", {"command": "go test -run '^$' -bench BenchmarkRenderInvoicePDF -benchmem ./services/billing/internal/invoice/", "description": "Benchmark"}),
        lambda b, v: b.draw(lambda: bench_out(b.rng, b.size(1500, hi=4000), f"BenchmarkRenderInvoicePDF-16   \t    {b.rng.randint(900, 2000)}\t    {v}\t  {b.rng.randint(40000, 90000)} B/op\t   {b.rng.randint(200, 900)} allocs/op"), (v,)),
        "`{v}` for a full invoice now.", "See above: the RenderInvoicePDF line.")
    v = f"webhookTimeout = {rng.randint(11, 99) * 100} * time.Millisecond"
    add(v, "What is the webhook timeout set to in notify?", "where do we set the webhook timeout and to what", "go",
        ("Grep", {"pattern": "Timeout", "path": "services/notify", "output_mode": "content", "-n": True}),
        lambda b, v: _insert(b.draw(lambda: "\n".join(f"{f}:{b.rng.randint(10, 300)}:\t{_pick(b.rng, ('ctx, cancel := context.WithTimeout(ctx, 5*time.Second)', 'readHeaderTimeout = 5 * time.Second', 'Timeout: cfg.HTTPTimeout,'))}"
                                                       for f in (_pick(b.rng, GO_FILES['notify']) for _ in range(b.rng.randint(8, 25))))),
                          b.rng, [f"services/notify/internal/webhook/config.go:{rng.randint(10, 40)}:\t{v}"]),
        "It's `{v}` in the webhook config.", "That's the one, the hit in webhook/config.go; the others are the HTTP server's own.")
    v = f"openssl-sys v0.9.{rng.randint(90, 109)}"
    add(v, "Which openssl-sys version does the CLI pull in?", "which openssl-sys does hafenctl pull in? the alpine build fails on it", "rust",
        ("Bash", {"command": "cd tools/hafenctl && cargo tree -i openssl-sys", "description": "Inverse dependency tree"}),
        lambda b, v: f"{v}\n└── openssl v0.10.{b.rng.randint(50, 66)}\n    └── native-tls v0.2.11\n        ├── hyper-tls v0.6.0\n        │   └── hafenctl v0.14.2 ({ROOT}/tools/hafenctl)\n        └── tokio-native-tls v0.3.1\n            └── hafenctl v0.14.2 ({ROOT}/tools/hafenctl)",
        "`{v}` via native-tls; the alpine image lacks the matching headers.", "See above, it comes in through native-tls.")
    v = f"cap webhook retries at {rng.randint(4, 19)}"
    add(v, "What did the commit that changed the webhook retry cap set it to?", "when did the webhook retry cap change, and to what", "git",
        ("Bash", {"command": "git log -S maxWebhookAttempts --oneline", "description": "Commits touching the constant"}),
        lambda b, v: _insert(b.draw(lambda: git_log_out(b.rng, b.size(800, hi=2500), True)), b.rng, [f"{_hex(rng, 7)} fix(notify): {v} (#{rng.randint(3000, 4899)})"], 0.1, 0.5),
        "The last change was `fix(notify): {v}`.", "That's the one, the fix(notify) commit above.")
    v = f"orders:{_pick(rng, (25, 26))}.{rng.randint(10, 48)}.{rng.randint(0, 9)}-{_hex(rng, 7)}"
    add(v, "Which image is the orders deployment running on staging?", "what image is orders running on staging right now?", "deps",
        ("Bash", {"command": "kubectl -n orders get deploy orders -o jsonpath='{..image}'", "description": "Deployed image"}),
        lambda b, v: f"ghcr.io/hafenlabs/{v} ghcr.io/hafenlabs/cloud-sql-proxy:2.11.0",
        "It runs `{v}` (plus the cloud-sql-proxy sidecar).", "See above, the first image; the second is the sidecar.")
    v = f"0.0.0.0:{_port(rng)}->6379/tcp"
    add(v, "Which host port did compose give the CI redis?", "which port did compose give the ci redis", "deps",
        ("Bash", {"command": "docker compose -f docker-compose.ci.yml ps", "description": "CI containers"}),
        lambda b, v: b.draw(lambda: compose_ps_out(b.rng)) + f"\nhafen-redis-ci-1   redis:7.2                          \"docker-entrypoint.s…\"   redis-ci   {rng.randint(2, 9)} minutes ago  Up {rng.randint(2, 9)} minutes           {v}",
        "It maps `{v}`.", "That's the one, the redis-ci row.")
    return out


def errors(rng: random.Random) -> list[dict[str, Any]]:
    """Runs that fail with one exact line: the ask, the command, the output with and without the line, the fix."""
    out: list[dict[str, Any]] = []

    def add(value: str, query: str, ask: str, topic: str, command: str, make: Callable[[_Builder, bool, str], str], fix: Callable[[_Builder], Call],
            why: str) -> None:
        out.append(dict(value=value, query=query, ask=ask, topic=topic, command=command, make=make, fix=fix, why=why))

    def edit_fix(path: str, old: str, new: str) -> Callable[[_Builder], Call]:
        def make(b: _Builder) -> Call:
            lines = ["", old.replace(old.strip(), new.strip()), ""]
            return ("Edit", {"file_path": f"{ROOT}/{path}", "old_string": old.strip(), "new_string": new.strip()},
                    f"The file {ROOT}/{path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
                    + _numbered(lines, b.rng.randint(20, 300)))
        return make

    svc = _pick(rng, ("billing", "orders", "inventory"))
    name = _planted_test(rng)
    v = f"--- FAIL: {name} (0.{rng.randint(1, 99):02d}s)"
    testfile = _pick(rng, [f for f in GO_FILES[svc] if f.endswith("_test.go")])
    add(v, f"Which test failed in the {svc} run?", _pick(rng, (f"fix the failing test in {svc}", f"{svc} tests are red on my branch, can you look")),
        "go", f"go test -v ./services/{svc}/...",
        lambda b, bad, v: go_test_out(b.rng, b.size(), svc, True, [f"=== RUN   {name}", f"    {testfile.rsplit('/', 1)[1]}:{b.rng.randint(30, 300)}: got {b.rng.randint(2, 9)} entries, want 1", v] if bad else None),
        edit_fix(testfile, "\twant := 1", "\twant := len(fixtures.Entries(tenant))"), "the fixture changed under it")
    svc2 = _pick(rng, ("billing", "inventory"))
    v = _pick(rng, (f"panic: ledger: unbalanced batch {rng.randint(1000, 9999)} (debit {rng.randint(100, 9999)} != credit {rng.randint(100, 9999)})",
                    f"panic: stock: reservation rsv_{_hex(rng, 8)} released twice",
                    f"panic: runtime error: index out of range [{rng.randint(5, 40)}] with length {rng.randint(5, 40)}"))
    add(v, f"What did the {svc2} test binary panic with?", f"the {svc2} tests crash, not fail. whats going on", "go", f"go test ./services/{svc2}/...",
        lambda b, bad, v: go_test_out(b.rng, b.size(), svc2, False, [v, ""] + goroutine_trace(b.rng, svc2) if bad else None),
        edit_fix(_pick(rng, GO_FILES[svc2]), "\tgo s.release(ctx, id)", "\ts.release(ctx, id)"), "a goroutine started in the handler outlives the request")
    var = f"{_pick(rng, ('state', 'plan', 'manifest', 'sync_set'))}.{_pick(rng, ('targets', 'pending', 'releases', 'hooks'))}"
    v = f"error[E0502]: cannot borrow `{var}` as mutable because it is also borrowed as immutable"
    ln = rng.randint(40, 200)
    add(v, "Which borrow error does the CLI build fail with?", "hafenctl doesn't build anymore after my change, help", "rust",
        "cd tools/hafenctl && cargo build",
        lambda b, bad, v: cargo_out(b.rng, b.size(1800, hi=6000), "build", [v, f"  --> src/cmd/sync.rs:{ln}:17", "   |",
                                                                           f"{ln - 3} |     let active = {var}.get(&name);",
                                                                           "   |                  ------------ immutable borrow occurs here", "...",
                                                                           f"{ln} |         {var}.insert(name.clone(), next);",
                                                                           "   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here",
                                                                           f"{ln + 1} |     println!(\"{{:?}}\", active);",
                                                                           "   |                      ------ immutable borrow later used here", "",
                                                                           "For more information about this error, try `rustc --explain E0502`."] if bad else None),
        edit_fix("tools/hafenctl/src/cmd/sync.rs", f"    let active = {var}.get(&name);", f"    let active = {var}.get(&name).cloned();"),
        "the immutable borrow lives until the println")
    moved = _pick(rng, ("release_plan", "target_list", "manifest_diff", "pending_sync"))
    v = f"error[E0382]: borrow of moved value: `{moved}`"
    add(v, "Which moved-value error does cargo test report?", "cargo test on the cli is broken, can you fix", "rust", "cd tools/hafenctl && cargo test",
        lambda b, bad, v: cargo_out(b.rng, b.size(), "test", [v, f"  --> src/cmd/deploy.rs:{ln}:22", "   |",
                                                           f"{ln - 2} |     let {moved} = build_plan(&cfg)?;",
                                                           f"   |         {'-' * len(moved)} move occurs because `{moved}` has type `Vec<Target>`, which does not implement the `Copy` trait",
                                                           f"{ln - 1} |     apply({moved});", f"   |           {'-' * len(moved)} value moved here",
                                                           f"{ln} |     println!(\"{{}}\", {moved}.len());", f"   |                      {'^' * len(moved)} value borrowed here after move",
                                                           "", "For more information about this error, try `rustc --explain E0382`."] if bad else None),
        edit_fix("tools/hafenctl/src/cmd/deploy.rs", f"    apply({moved});", f"    apply({moved}.clone());"), "the plan is moved into apply and used afterwards")
    path = _pick(rng, [f for f in TS_FILES if ".test." not in f and f.startswith("web/src")])
    a, t = _pick(rng, (("InvoiceStatus | undefined", "InvoiceStatus"), ("Money | null", "Money"), ("string | number", "TenantId")))
    v = f"{path}({rng.randint(20, 220)},{rng.randint(3, 40)}): error TS2322: Type '{a}' is not assignable to type '{t}'."
    add(v, "Which TypeScript error does tsc report?", "tsc is red on main, fix it pls", "web", "npx tsc --noEmit -p web/tsconfig.json",
        lambda b, bad, v: tsc_out(b.rng, b.size(1200, hi=4000), [v]) if bad else "(No content)",
        edit_fix(path, f"  status: {t}", f"  status: {a}"), "the api type got widened")
    prop = _pick(rng, ("dunningLevel", "fulfilledAt", "payoutRef", "agingBucket"))
    typ = _pick(rng, ("InvoiceRow", "OrderSummary", "LedgerLine"))
    path2 = _pick(rng, [f for f in TS_FILES if ".test." not in f and f.startswith("web/src")])
    v = f"{path2}({rng.randint(20, 220)},{rng.randint(3, 40)}): error TS2339: Property '{prop}' does not exist on type '{typ}'."
    add(v, "Which property does tsc say is missing?", "typecheck fails after the api-client regen, can you look", "web", "npx tsc --noEmit -p web/tsconfig.json",
        lambda b, bad, v: tsc_out(b.rng, b.size(1200, hi=4000), [v]) if bad else "(No content)",
        edit_fix("web/packages/api-client/src/client.ts", f"export interface {typ} {{", f"export interface {typ} {{\n  {prop}?: string"),
        "the regenerated client dropped the field")
    suite = _pick(rng, ("InvoiceTable", "OrderList"))
    case = f"flags invoices older than {rng.randint(31, 89)} days as overdue" if suite == "InvoiceTable" else f"shows {rng.randint(11, 49)} orders per page"
    tf = f"src/features/{'invoices' if suite == 'InvoiceTable' else 'orders'}/__tests__/{suite}.test.tsx"
    v = f"FAIL  {tf} > {suite} > {case}"
    add(v, "Which vitest case fails?", "web tests fail since this morning", "web", "pnpm -C web vitest run",
        lambda b, bad, v: vitest_out(b.rng, b.size(), ["⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯", "", " " + v,
                                                     "AssertionError: expected 'due' to be 'overdue' // Object.is equality", "", "- Expected", "+ Received", "",
                                                     "- overdue", "+ due", "", f" ❯ {tf}:{b.rng.randint(20, 90)}:31"], tf) if bad else vitest_out(b.rng, b.size()),
        edit_fix(f"web/{tf}", "    vi.setSystemTime(new Date('2025-03-01'))", "    vi.setSystemTime(new Date('2025-03-31'))"), "the test's clock is a month off")
    jcase = f"retries a 503 up to {rng.randint(3, 9)} times with backoff"
    v = f"● ApiClient › {jcase}"
    add(v, "Which jest test fails in the api-client package?", "api-client tests are failing, look pls", "web", "pnpm -C web/packages/api-client test",
        lambda b, bad, v: jest_out(b.rng, b.size(1500, hi=6000), [" FAIL  src/__tests__/retry.test.ts", "  " + v, "",
                                                               "    expect(received).toBe(expected) // Object.is equality", "",
                                                               f"    Expected: {b.rng.randint(3, 9)}", "    Received: 1", "",
                                                               "      at Object.<anonymous> (src/__tests__/retry.test.ts:48:31)", ""]) if bad
        else jest_out(b.rng, b.size(1500, hi=6000)),
        edit_fix("web/packages/api-client/src/client.ts", "      if (res.status >= 500) throw err", "      if (res.status >= 500 && attempt >= maxAttempts) throw err"),
        "the retry loop throws on the first 5xx")
    lpath = _pick(rng, ALL_GO)
    call = _pick(rng, ("ledger.Flush", "outbox.MarkSent", "snap.Close", "batch.Commit"))
    v = f"{lpath}:{rng.randint(20, 400)}:{rng.randint(2, 30)}: Error return value of `{call}` is not checked (errcheck)"
    add(v, "Which errcheck finding does the linter report?", "lint is red, what is it", "go", "golangci-lint run ./...",
        lambda b, bad, v: lint_out(b.rng, b.size(1800, hi=6000), [v, f"\t{call}(ctx)", "\t^"] if bad else None),
        edit_fix(lpath, f"\t{call}(ctx)", f"\tif err := {call}(ctx); err != nil {{\n\t\treturn err\n\t}}"), "the return value is ignored")
    topic = f"orders_{_pick(rng, ('events', 'payments', 'fulfilment'))}_dlq"
    v = f'A managed resource "google_pubsub_topic" "{topic}" has not been declared in the root module.'
    add(v, "Which undeclared resource does the terraform plan complain about?", "terraform plan for staging is broken, can you see why", "infra",
        "terraform -chdir=infra/envs/staging plan -no-color -lock=false",
        lambda b, bad, v: (b.draw(lambda: tf_plan_out(b.rng, b.size(1500, hi=5000)).split("\n\nTerraform used")[0]) + "\n╷\n│ Error: Reference to undeclared resource\n│\n"
                        f"│   on pubsub.tf line {b.rng.randint(20, 80)}, in resource \"google_pubsub_subscription\" \"orders_events_worker\":\n"
                        f"│   {b.rng.randint(20, 80)}:   dead_letter_topic = google_pubsub_topic.{topic}.id\n│\n│ {v}\n╵") if bad
        else tf_plan_out(b.rng, b.size()),
        edit_fix("infra/envs/staging/pubsub.tf", f"# TODO: {topic}", f'resource "google_pubsub_topic" "{topic}" {{\n  name = "{topic.replace("_", "-")}"\n}}'),
        "the DLQ topic was never declared")
    unused = _pick(rng, ("stale_revision", "rollout_window", "dry_run_plan", "lock_holder"))
    v = f"error: unused variable: `{unused}`"
    add(v, "Which variable does clippy reject?", "clippy fails in CI for the cli, can you fix", "rust", "cd tools/hafenctl && cargo clippy -- -D warnings",
        lambda b, bad, v: cargo_out(b.rng, b.size(1500, hi=5000), "clippy", [v, f"  --> src/cmd/deploy.rs:{ln + 7}:9", "   |",
                                                                                f"{ln + 7} |     let {unused} = plan.revision();",
                                                                                f"   |         {'^' * len(unused)} help: if this is intentional, prefix it with an underscore: `_{unused}`",
                                                                                "   |", "   = note: `-D unused-variables` implied by `-D warnings`", ""] if bad else None),
        edit_fix("tools/hafenctl/src/cmd/deploy.rs", f"    let {unused} = plan.revision();", ""), "a variable is left over from the refactor")
    svc3 = _pick(rng, ("billing", "inventory", "orders"))
    ident = _pick(rng, {"billing": ("ledger.ErrUnbalancedBatch", "psp.CaptureIdempotent"), "inventory": ("stock.ReleaseAll", "stock.ErrOversold"),
                        "orders": ("domain.FulfilmentPartial", "domain.ErrLateCancel")}[svc3])
    upath = _pick(rng, [f for f in GO_FILES[svc3] if not f.endswith("_test.go")])
    v = f"{upath}:{rng.randint(20, 300)}:{rng.randint(2, 30)}: undefined: {ident}"
    add(v, f"Which identifier is undefined in the {svc3} build?", f"{svc3} doesn't compile after the merge", "go", f"go build ./services/{svc3}/...",
        lambda b, bad, v: f"# {_pkg_of(upath)}\n{v}\n" if bad else "(No content)",
        edit_fix(upath, f"\treturn {ident}", f"\treturn {ident.split('.')[1]}"), "the merge renamed the package-level symbol")
    return out


def identifiers(rng: random.Random) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Ids he says (then a tool prints them) and ids a tool prints first."""
    said: list[dict[str, Any]] = []
    printed: list[dict[str, Any]] = []
    key = f"HFN-{rng.randint(2000, 2999)}"
    said.append(dict(value=key, query="Which Jira ticket did he ask to pick up?", ask=f"can you pick up {key}? it's the refund rounding one",
                     call=("Bash", {"command": f"jira issue view {key} --plain", "description": "Show the ticket"}),
                     out=lambda b: (f"{key}  Refund rounding off by one cent on partial captures\nType: Bug   Status: To Do   Priority: High\n"
                                    f"Reporter: {_pick(b.rng, FILLER_PEOPLE)[0]}   Assignee: Jonas\n\nPartial captures of EUR amounts with three line items "
                                    "end up one cent short in the ledger.\n"), done=f"Read {key}: partial captures round per line instead of per total."))
    pr = str(rng.randint(5000, 5999))
    said.append(dict(value=f"#{pr}", query="Which PR did he ask the agent to review?", ask=f"review #{pr} pls, it's kai's outbox pr",
                     call=("Bash", {"command": f"gh pr view {pr}", "description": "Show the PR"}),
                     out=lambda b: gh_pr_out(b.rng, pr, "feat(orders): outbox dispatcher"), done="Read it; comments below."))
    sid = f"HAFEN-{_pick(rng, ('ORDERS', 'BILLING', 'WEB', 'GATEWAY'))}-{_b32(rng, 3)}"
    said.append(dict(value=sid, query="Which Sentry issue is spiking?", ask=f"sentry {sid} is spiking again since the deploy",
                     call=("Bash", {"command": f"sentry-cli issues list --org hafen --query \"{sid}\"", "description": "Sentry issue"}),
                     out=lambda b: ("+---------------+------------------------------------------------------+--------+-------+\n"
                                    "| Issue ID      | Title                                                | Events | Users |\n"
                                    "+---------------+------------------------------------------------------+--------+-------+\n"
                                    f"| {sid:<13} | context deadline exceeded in outbox.(*Dispatcher).tick | {b.rng.randint(200, 9000):>6} | {b.rng.randint(3, 300):>5} |\n"
                                    "+---------------+------------------------------------------------------+--------+-------+"),
                     done="It's the dispatcher timing out since the deploy."))
    req = f"req_01{_b32(rng, 24)}"
    said.append(dict(value=req, query="Which request id did the customer's failed checkout have?",
                     ask=f"customer says their checkout failed, request id {req}. find it in the logs",
                     call=("Bash", {"command": f"kubectl -n orders logs deploy/orders --since=6h | grep {req}", "description": "Find the request"}),
                     out=lambda b: "\n".join(json.dumps({"time": _stamp(b.rng), "level": lv, "msg": m, "request_id": req, "tenant": f"t_{_hex(b.rng, 4)}"})
                                             for lv, m in (("INFO", "checkout started"), ("WARN", "psp capture retry"), ("ERROR", "psp capture failed: 409 conflict"))),
                     done="Found it: the PSP answered 409 on capture."))
    sha = _hex(rng, 7)
    said.append(dict(value=sha, query="Which commit did he ask to revert?", ask=f"revert {sha}, it broke the staging deploy",
                     call=("Bash", {"command": f"git show --stat {sha}", "description": "Show the commit"}),
                     out=lambda b: (f"commit {sha}{_hex(b.rng, 33)}\nAuthor: {_pick(b.rng, FILLER_PEOPLE)[0]}\nDate:   {_date(b.rng)}\n\n    "
                                    f"{_pick(b.rng, COMMIT_SUBJECTS)}\n\n services/orders/internal/http/handler.go | 14 +++++++---\n 1 file changed"),
                     done="That's the handler change; reverting it is clean."))
    failed = str(rng.randint(9_100_000_000, 9_899_999_999))
    said.append(dict(value=failed, query="Which CI run did he ask the agent to look at?", ask=f"look at run {failed}, the web job died halfway",
                     call=("Bash", {"command": f"gh run view {failed}", "description": "Show the run"}),
                     out=lambda b: (f"X main ci · {failed}\nTriggered via push about {b.rng.randint(2, 9)} hours ago\n\nJOBS\n"
                                    f"✓ go in {b.rng.randint(3, 9)}m{b.rng.randint(0, 59)}s (ID {b.rng.randint(20_000_000_000, 29_999_999_999)})\n"
                                    f"X web in {b.rng.randint(3, 9)}m{b.rng.randint(0, 59)}s (ID {b.rng.randint(20_000_000_000, 29_999_999_999)})\n"
                                    f"  ✓ Set up job\n  ✓ Run pnpm -C web install --frozen-lockfile\n  X Run pnpm -C web typecheck && pnpm -C web test\n"
                                    f"✓ cli in {b.rng.randint(1, 5)}m{b.rng.randint(0, 59)}s (ID {b.rng.randint(20_000_000_000, 29_999_999_999)})\n\n"
                                    "To see what failed, try: gh run view --log-failed"),
                     done="The web job died in the test step; the runner ran out of memory, not a test failure."))
    sha2 = _hex(rng, 7)
    printed.append(dict(value=sha2, query="What is the sha of the commit the agent made for the fix?", ask="commit the fix and tell me the sha",
                        call=("Bash", {"command": "git commit -am \"fix(billing): round partial captures on the total\"", "description": "Commit"}),
                        out=lambda b: f"[jb/capture-rounding {sha2}] fix(billing): round partial captures on the total\n 2 files changed, 31 insertions(+), 9 deletions(-)",
                        done=f"Committed as {sha2}."))
    url = f"https://github.com/hafenlabs/hafen/pull/{rng.randint(6000, 6999)}"
    printed.append(dict(value=url, query="What is the URL of the draft PR the agent opened?", ask="open a draft pr for this",
                        call=("Bash", {"command": "gh pr create --draft --fill", "description": "Open a draft PR"}),
                        out=lambda b: f"Creating draft pull request for jb/gateway-split into main in hafenlabs/hafen\n\n{url}\n",
                        done=f"Draft PR: {url}"))
    run = str(rng.randint(9_100_000_000, 9_899_999_999))
    printed.append(dict(value=run, query="Which CI run failed on main this morning?", ask="which ci run failed on main this morning?",
                        call=("Bash", {"command": "gh run list --branch main --limit 12", "description": "Recent runs"}),
                        out=lambda b: "STATUS  TITLE                                   WORKFLOW  BRANCH  EVENT  ID          ELAPSED  AGE\n" + "\n".join(
                            [f"✓       {_pick(b.rng, COMMIT_SUBJECTS)[:38]:<38}  ci        main    push   {b.rng.randint(7_000_000_000, 8_999_999_999)}  {b.rng.randint(3, 14)}m{b.rng.randint(0, 59)}s   {h}h"
                             for h in range(2, 9)] + [f"X       {_pick(b.rng, COMMIT_SUBJECTS)[:38]:<38}  ci        main    push   {run}  {b.rng.randint(3, 14)}m{b.rng.randint(0, 59)}s   9h"]),
                        done=f"Run {run}, the one marked X."))
    key2 = f"HFN-{rng.randint(3000, 3999)}"
    printed.append(dict(value=key2, query="Which Jira ticket was created for the flaky test?", ask="make a ticket for the flaky inventory test",
                        call=("Bash", {"command": "jira issue create -tBug -s\"Flaky reservation test in inventory\" --no-input", "description": "Create ticket"}),
                        out=lambda b: f"✓ Issue created\nhttps://hafen.atlassian.net/browse/{key2}", done=f"Created {key2}."))
    trace = _hex(rng, 32)
    printed.append(dict(value=trace, query="Which trace id belongs to the failed refund on staging?", ask="find the trace for the failed refund on staging",
                        call=("Bash", {"command": "kubectl -n billing logs deploy/billing --since=1h | grep refund", "description": "Refund logs"}),
                        out=lambda b: "\n".join(json.dumps({"time": _stamp(b.rng), "level": "INFO", "msg": "refund ok", "trace_id": _hex(b.rng, 32)})
                                                for _ in range(b.rng.randint(6, 20))) + "\n" + json.dumps(
                            {"time": _stamp(b.rng), "level": "ERROR", "msg": "refund failed: psp 422 amount exceeds captured", "trace_id": trace}),
                        done=f"The failed one has trace_id {trace}."))
    sid2 = f"HAFEN-BILLING-{_b32(rng, 3)}"
    printed.append(dict(value=sid2, query="Which new Sentry issue showed up for billing after the release?", ask="anything new in sentry for billing since the release?",
                        call=("Bash", {"command": "sentry-cli issues list --org hafen --project hafen-billing --status unresolved", "description": "Open issues"}),
                        out=lambda b: "| Issue ID          | Title                                         | Events |\n" + "\n".join(
                            f"| HAFEN-BILLING-{_b32(b.rng, 2):<3} | {_pick(b.rng, ('pq: deadlock detected', 'context canceled', 'psp: 502 bad gateway')):<45} | {b.rng.randint(1, 900):>6} |"
                            for _ in range(b.rng.randint(3, 8))) + f"\n| {sid2:<17} | ledger: unbalanced batch on partial refund     | {rng.randint(10, 99):>6} |  (new)",
                        done=f"One new: {sid2}."))
    return said, printed


# --- what he pastes ----------------------------------------------------------------------------------------------
REVIEW_POINTS = ("nit: please return 422 here, not 400, the client treats 400 as its own bug",
                 "must: this needs a test for the empty cart case", "don't swallow the Rollback error, at least log it",
                 "please use errors.Is instead of comparing error strings", "ctx goes first in the signature, please fix",
                 "make sure the migration is reversible before merging", "you should never log the whole request body here, it has PII",
                 "please rename this, `data2` tells me nothing")


def review_text(rng: random.Random, point: str | None = None) -> str:
    name, handle = _pick(rng, FILLER_PEOPLE)
    files = rng.sample(ALL_GO, 2)
    points = [(f, p) for f, p in zip([_pick(rng, files) for _ in range(4)], rng.sample(REVIEW_POINTS, rng.randint(2, 4)))]
    if point:
        points.insert(rng.randint(1, len(points)), (files[1], point))
    body = "\n\n".join(f"{f}\n  L{rng.randint(12, 380)}  {p}" for f, p in points)
    return (f"**{handle}** requested changes on #{rng.randint(3000, 4899)}\n\n{body}\n\n"
            f"Overall: {_pick(rng, ('please split the refactor from the behaviour change before I approve.', 'close, fix the must: items and ping me.', 'looks good otherwise, please address the comments.'))}")


def slack_text(rng: random.Random) -> str:
    name, _ = _pick(rng, FILLER_PEOPLE)
    other = _pick(rng, FILLER_PEOPLE)[0].split()[0]
    asks = rng.sample(("can you make sure the billing export runs against the new bucket? finance needs the march files",
                       f"please don't merge the outbox pr until {other} has looked at it",
                       "could you check why the web build takes 9 minutes now? it was 4 last week",
                       "we need the tenant quota endpoint by thursday, please prioritise it over the cleanup",
                       "don't forget to update the runbook when you change the alerts",
                       "can you make sure the hafenctl release has the json output, ops is waiting for it"), 2)
    return (f"{name}  {rng.randint(8, 18)}:{rng.randint(0, 59):02d}\nhey @jonas 👋 two things before friday:\n1. {asks[0]}\n2. {asks[1]}\n"
            f"{_pick(rng, ('also we should really stop retriggering flaky jobs, everyone please file a ticket instead', 'thx!! 🙏', 'and please reply in the thread, not in the channel'))}")


def sentry_text(rng: random.Random) -> str:
    return (f"[Sentry] New issue in hafen-web (production)\n\nTypeError: Cannot read properties of undefined (reading 'amountMinor')\n"
            f"  at formatMoney (src/lib/format.ts:{rng.randint(8, 40)}:22)\n  at InvoiceTable (src/features/invoices/InvoiceTable.tsx:{rng.randint(40, 90)}:17)\n\n"
            f"Issue      HAFEN-WEB-{_b32(rng, 2)}\nEvents     {rng.randint(20, 900)} in the last hour · Users {rng.randint(3, 90)}\n"
            f"Release    web@2025.{rng.randint(10, 30)}.{rng.randint(0, 9)}\nTags       browser=Chrome {rng.randint(120, 126)}, tenant=t_{_hex(rng, 4)}\n\n"
            f"Please review this issue and assign an owner: https://hafen.sentry.io/issues/{rng.randint(4_000_000_000, 4_999_999_999)}/")


def trace_text(rng: random.Random) -> str:
    svc = _pick(rng, ("orders", "billing", "gateway"))
    return (f"{_stamp(rng)} ERROR {svc}-{_hex(rng, 9)}-{_b32(rng, 5).lower()} http: panic serving 10.{rng.randint(16, 250)}.{rng.randint(0, 255)}.{rng.randint(2, 250)}:{rng.randint(32768, 60999)}: "
            "runtime error: invalid memory address or nil pointer dereference\n"
            f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x{_hex(rng, 2)} pc=0x{_hex(rng, 6)}]\n\n" + "\n".join(goroutine_trace(rng, svc, rng.randint(4, 9))))


def rfc_text(rng: random.Random) -> str:
    return (f"### {rng.randint(3, 6)}.{rng.randint(1, 5)} Retries and idempotency\n\n"
            "Clients MUST send an `Idempotency-Key` header on every POST that creates a resource. Servers MUST store the key with the "
            "response for at least 24 hours and replay the stored response when the key repeats.\n\n"
            f"Clients SHOULD retry on 502, 503 and 504 with exponential backoff starting at {_pick(rng, (100, 200, 250))} ms and MUST NOT retry "
            "other 4xx responses than 429. A retried request MUST carry the same idempotency key.\n\n"
            "Servers MUST NOT hold a lock across the call to the payment provider. Implementations SHOULD emit a `retry_attempt` attribute on the span.")


def package_json_text(rng: random.Random) -> str:
    deps = rng.sample(NPM_DEPS, 6)
    return ("{\n  \"name\": \"@hafen/api-client\",\n  \"version\": \"0.9." + str(rng.randint(1, 9)) + "\",\n  \"main\": \"dist/index.js\",\n"
            "  \"scripts\": {\n    \"build\": \"tsc -p tsconfig.build.json\",\n    \"test\": \"jest --ci\"\n  },\n  \"dependencies\": {\n"
            + ",\n".join(f"    \"{d}\": \"^{v}\"" for d, v in deps[:3]) + "\n  },\n  \"devDependencies\": {\n"
            + ",\n".join(f"    \"{d}\": \"{v}\"" for d, v in deps[3:]) + "\n  },\n  \"peerDependencies\": {\n    \"react\": \">=18\"\n  }\n}")


def bench_table_text(rng: random.Random) -> str:
    rows = []
    for name in rng.sample(("RenderInvoice", "RenderHeader", "TotalLines", "TaxRound", "EncodeLines", "SignPDF"), 4):
        before = rng.randint(20000, 400000)
        after = int(before * rng.uniform(0.5, 1.1))
        rows.append(f"| Benchmark{name}-16 | {before} | {after} | {100 * (after - before) / before:+.1f}% |")
    return "| benchmark | before ns/op | after ns/op | delta |\n|---|---:|---:|---:|\n" + "\n".join(rows)


PASTES: dict[str, tuple[Callable[[random.Random], str], tuple[str, ...], tuple[str, ...], str]] = {
    "ci": (lambda r: gh_run_log_out(r, r.randint(1200, 3500), job=_pick(r, ("go", "web", "cli"))),
           ("ci on main is red again, from the job log:", "guck mal, ci log:", "this is what ci says on my branch"),
           ("is that us or flaky?", "any idea?", ""), "The log is noisy, but nothing in it points at our change; it looks like the runner, not the code."),
    "sentry": (sentry_text, ("this came in 10 min ago", "sentry again:", "schau mal bitte:"), ("where does that come from?", "", "can it be the api change?"),
               "That's `formatMoney` getting a row without an amount; the API returns partial rows for drafts."),
    "slack": (slack_text, ("from slack, see below:", "slack msg, fyi:", "this came in on slack:"), ("what do we need for the first one?", "", "thoughts?"),
              "The first ask is small. The second is a merge hold, nothing for me to do."),
    "review": (lambda r: review_text(r), ("review on my pr, what do you think. don't change anything yet", "comments from the review:", "the review came in:"),
               ("which ones are worth it?", "", "agree?"), "Most of them are fair; the 422 one depends on what the client expects, I'd ask."),
    "trace": (trace_text, ("this is from prod last night, wtf:", "prod log:", "trace from prod, gestern abend"), ("where does that come from?", "", "can you find it?"),
              "Nil pointer in the handler chain; the frames point at the store call when the tenant lookup returns nothing."),
    "rfc": (rfc_text, ("priya's rfc, section below. does our gateway do this?", "aus dem RFC:", "the relevant part of the rfc:"), ("", "how far off are we?"),
            "Partly: we retry 502/503/504 but we don't store idempotency keys yet."),
    "package": (package_json_text, ("this is the package.json from kai's branch, why does pnpm install fail with it?", "package.json from the api-client branch:"),
                ("", "anything wrong in there?"), "The versions look fine; it's the missing workspace protocol for the internal packages."),
    "bench": (bench_table_text, ("tobias ran the benchmarks on the pdf branch:", "benchmark results:", "numbers from tobias"), ("looks good?", "", "anything suspicious?"),
              "Looks real: the header render got faster, the rest is within noise."),
}


# --- episodes ------------------------------------------------------------------------------------------------------
LEADS = {"direct": ("", "one thing: ", "fyi ", "rule: ", "btw ", "from now on: ", "going forward: "),
         "indirect": ("", "fyi ", "just so you know, ", "context: "), "pref": ("", "also, "), "cond": ("", "and "),
         "de": ("", "übrigens: ", "noch was: ")}


def _extras(b: _Builder, topic: str, k: int) -> None:
    """``k`` routine calls of the agent's loop inside an episode, one message each."""
    t = _Turn(b, topic)
    if t.intent not in ("git", "commit", "deps", "docs"):
        t.intent = _pick(b.rng, ("read", "search"))
    elif t.intent == "commit":
        t.intent = "git"
    steps = t.steps(k)
    for j in range(k):
        b.unit(partial(_step, b, steps[j]))


def _one(b: _Builder, call: Call) -> None:
    b.act([call], _note(b.rng, call[0]))


def _step(b: _Builder, step: Callable[[], Call]) -> None:
    _one(b, step())


def _said(rng: random.Random, template: str, **values: str) -> str:
    """His words: the template typed with typos, the values exact."""
    return _put(_typo(rng, template), **values)


def _clean_call(b: _Builder, make: Callable[[], Call], allowed: Sequence[str]) -> Call:
    """A call whose text says no planted value but ``allowed``."""
    for _ in range(40):
        call = make()
        text = json.dumps(call[1], ensure_ascii=False) + call[2]
        for v in allowed:
            text = text.replace(v, "")
        if not b.dirty(text):
            return call
    raise _Dirty("call")


def ep_instruction(b: _Builder, p: Plant) -> None:
    rng, d, v = b.rng, p.data, p.value
    rule, form = d["rule"], d["form"]
    if form in LEADS:
        p.index = b.user(_said(rng, _pick(rng, LEADS[form]) + rule[form], v=v))
    elif form == "second":
        t = _Turn(b, d["topic"])
        para = _pick(rng, ("also, unrelated: ", "and one more thing for the rest of the session: ", "oh and going forward: "))
        text = (_put(t.ask(), v=v) + ". " + _typo(rng, _pick(rng, ("no rush.", "the branch is already checked out.", "should be quick.")))
                + "\n\n" + _said(rng, para + rule.get("direct") if "direct" in rule else para + rule["indirect"], v=v)
                + _pick(rng, ("", "\n\nthx", "\n\ndanke")))
        p.index = b.user(text)
        k = 1 + d["extra"]
        steps = t.steps(k)
        for j in range(k):
            b.unit(partial(_step, b, steps[j]))
        b.say(t.done() + (" " + _put(rule["ack"], v=v) if 2 * k + 1 <= 8 else ""))
        return
    elif form == "doc":
        lead, doc = adopted_doc(rng, d["which"], {"doc": _put(rule["doc"], v=v)})
        p.index = b.user(lead + "\n\n" + doc)
    elif form == "review":
        review = b.draw(lambda: review_text(rng, rule["point"]))
        lead = _said(rng, _pick(rng, ("review on my pr:", "the review came in:", "comments on my pr:")))
        tail = _said(rng, rule["adopt"] + ". " + _pick(rng, ("the rest of the comments i'll answer myself", "ignore the nits",
                                                             "the other points we discuss in the pr")), v=v)
        p.index = b.user(lead + "\n\n" + review + "\n\n" + tail, pasted=review)
    else:  # after a paste
        slack = b.draw(lambda: slack_text(rng))
        p.index = b.user(_said(rng, _pick(rng, ("from slack:", "slack, fyi:"))) + "\n\n" + slack + "\n\n"
                         + _said(rng, _pick(rng, ("unrelated to that: ", "different topic: ", "and separately, ")) + rule["direct"], v=v), pasted=slack)
    b.say(_put(rule["ack"], v=v))


def ep_stale(b: _Builder, p: Plant) -> None:
    """He says the value he will later correct, as part of an ask; the agent acts on it."""
    rng, d, s = b.rng, p.data, p.stale
    assert s is not None
    if p.kind == "decision":
        p.stale_index = b.user(_said(rng, _pick(rng, DECIDE), v=s, topic=d["topic"], why=_pick(rng, WHY), why_de=_pick(rng, WHY_DE)))
        if d["todo_stale"]:
            b.act([("TodoWrite", {"todos": [{"content": f"Move {d['topic']} to {s}", "status": "pending", "activeForm": f"Moving {d['topic']} to {s}"}]}, TODO_RESULT)])
        b.say(f"Ok, {s} for {d['topic']}.")
        return
    p.stale_index = b.user(_said(rng, _pick(rng, ("", "next: ", "ok, ", "and ")) + d["tell"], s=s))
    if d["stale_data"].get("lite"):
        b.say(f"Will do ({s}).")
        return
    _one(b, _clean_call(b, lambda: d["use"](rng, s), [s]))
    k = d["extra_stale"]
    _extras(b, d["topic"], k)
    b.say(_put(AFTER_USE[d["what"]], x=s) if 2 * k + 3 <= 12 else "Done, see above.")


def ep_correction(b: _Builder, p: Plant) -> None:
    rng, d, v, s = b.rng, p.data, p.value, p.stale
    assert s is not None
    form = d["form"]
    if form == "MID":
        text = (_typo(rng, _pick(rng, MID_OPEN)) + "\n\n" + _said(rng, f"btw i gave you the wrong {d['short']} earlier, it's {{v}} not {{s}}.", v=v, s=s)
                + "\n\n" + _said(rng, _pick(rng, MID_CLOSE), svc=_pick(rng, SVCS)))
    else:
        text = _said(rng, form, what=d["what"], v=v, s=s)
    p.index = b.user(text)
    if d.get("lite"):
        b.say(f"Noted, {v}.")
        return
    b.act([_clean_call(b, lambda: d["use"](rng, v), [v])], _pick(rng, ("Redoing it with the right one.", "Switching.", None)))
    _extras(b, d["topic"], d["extra"])
    b.say(_pick(rng, ("Right. ", "Ok. ", "")) + _put(AFTER_USE[d["what"]], x=v) if 2 * d["extra"] + 3 <= 8
          else "Redone with the corrected value, see above.")


def ep_decision(b: _Builder, p: Plant) -> None:
    rng, d, v = b.rng, p.data, p.value
    if p.stale is not None:
        text = _said(rng, _pick(rng, REVISE), v=v, s=p.stale, topic=d["topic"], why=_pick(rng, WHY))
    else:
        text = _said(rng, _pick(rng, DECIDE), v=v, topic=d["topic"], why=_pick(rng, WHY), why_de=_pick(rng, WHY_DE))
    p.index = b.user(text)
    if d["todo"] and not d.get("lite"):
        b.act([("TodoWrite", {"todos": [{"content": f"Move {d['topic']} to {v}", "status": "pending", "activeForm": f"Moving {d['topic']} to {v}"},
                                        {"content": "Update the ADR index", "status": "pending", "activeForm": "Updating the ADR index"}]}, TODO_RESULT)])
    b.say(f"Ok, {v} for {d['topic']}." + (" I'll drop the earlier plan." if p.stale is not None else ""))


def ep_plan(b: _Builder, p: Plant) -> None:
    rng, d = b.rng, p.data
    steps = [_typo(rng, s) for s in rng.sample(GENERIC_STEPS, 3)]
    steps.insert(d["at"], d["step"])
    form = _typo(rng, d["form"])
    p.index = b.user(_put(form, a=steps[0], b=steps[1], c=steps[2], d=steps[3]))
    if d.get("lite"):
        b.say("Got it, four steps; starting with the first.")
        return
    todos = [{"content": s[0].upper() + s[1:], "status": "in_progress" if i == 0 else "pending", "activeForm": "Working on: " + s}
             for i, s in enumerate(steps)]
    b.act([("TodoWrite", {"todos": todos}, TODO_RESULT)])
    b.say(_pick(rng, ("Plan's in the todo list; starting with the first step.", "Got it, four steps in the todo list.", "Tracked. First step now.")))


def ep_file(b: _Builder, p: Plant) -> None:
    rng, d, path = b.rng, p.data, p.value
    topic = "web" if path.startswith("web/") else "rust" if path.startswith("tools/") else "infra" if path.startswith("infra/") else "go"
    b.user(_said(rng, d["ask"] + _pick(rng, ("", " pls", ", bitte", ". keep it small"))))
    _extras(b, topic, d["extra"])
    content = b.draw(lambda: file_content(rng, path))
    p.index = b.act([("Write", {"file_path": f"{ROOT}/{path}", "content": content}, f"File created successfully at: {ROOT}/{path}")],
                    _pick(rng, ("Writing the new file.", None, "Creating it.")))
    if d["test"]:
        t = _Turn(b, topic)
        t.intent = "test" if topic != "infra" else "validate"
        b.unit(lambda: b.act([t.run()], "Running the tests."))
    b.say(f"Added `{path}`. " + _pick(rng, ("Tests pass.", "It builds; nothing else touched.", "Wired it in, see above.")))


def ep_finding(b: _Builder, p: Plant) -> None:
    rng, d = b.rng, p.data
    b.user(_said(rng, d["ask"]))
    _extras(b, d["topic"], d["extra"])
    name, args = d["call"]
    out = d["make"](b, p.value)
    p.index = b.act([(name, args, out)], _note(rng, name)) + 1
    _extras(b, d["topic"], d["after"])
    b.say(_put(d["quote"], v=p.value) if d["style"] == "quote" and 2 * d["after"] + 1 <= 8 else d["plain"])


def ep_error(b: _Builder, p: Plant) -> None:
    rng, d = b.rng, p.data
    b.user(_said(rng, d["ask"]))
    _extras(b, d["topic"], d["extra"])
    args = {"command": d["command"], "description": "Run it"}
    bad = d["make"](b, True, p.value)
    if b.dirty(bad.replace(p.value, "")):
        raise _Dirty("error output")
    p.index = b.act([("Bash", args, bad)], _note(rng, "Bash")) + 1
    _extras(b, d["topic"], d["after"])
    if d["mode"] == "now":
        b.act([d["fix"](b)], "Fixing it.")
        p.resolved = b.act([("Bash", args, b.draw(lambda: d["make"](b, False, p.value)))], "Re-running.") + 1
        b.say(f"Fixed: {d['why']}. The run is clean now.")
    elif d["mode"] == "later":
        b.say(f"It fails because {d['why']}. {_pick(rng, ('Kai has a PR touching the same code, I would wait for it.', 'That needs Lenas migration first.', 'I left it alone until the refactor lands.'))}")
    else:
        b.say(_pick(rng, (f"It fails because {d['why']}. I haven't changed anything.", "See above, that's the one. Want me to fix it?",
                          f"Found it: {d['why']}. Leaving it for now as you said.")))


def ep_rerun(b: _Builder, p: Plant) -> None:
    rng, d = b.rng, p.data
    b.user(_said(rng, _pick(rng, ("kai merged his fix, run it again", "ok try that failing run again now", "lena's pr is in, rerun pls",
                                  "der fix ist drin, nochmal laufen lassen bitte"))))
    p.resolved = b.act([("Bash", {"command": d["command"], "description": "Run it"}, b.draw(lambda: d["make"](b, False, p.value)))], "Re-running.") + 1
    b.say("Passes now.")


def ep_identifier(b: _Builder, p: Plant) -> None:
    rng, d, v = b.rng, p.data, p.value
    name, args = d["call"]
    if d["said"]:
        p.index = b.user(_said(rng, d["ask"].replace(v, "{v}"), v=v))
        if d.get("lite"):
            b.say(f"Noted, {v}; I'll look at it next.")
            return
        b.act([(name, args, d["out"](b))], _note(rng, name))
    else:
        b.user(_said(rng, d["ask"]))
        _extras(b, d["topic"], d["extra"])
        p.index = b.act([(name, args, d["out"](b))], _note(rng, name)) + 1
    b.say(d["done"])


def ep_pasted(b: _Builder, source: str, knob: dict[str, int]) -> None:
    make, leads, afters, answer = PASTES[source]
    rng = b.rng

    def run() -> None:
        pasted = make(rng)
        after = _pick(rng, afters)
        b.user(_typo(rng, _pick(rng, leads)) + "\n\n" + pasted + ("\n\n" + _typo(rng, after) if after else ""), pasted=pasted)
    b.unit(run)
    _extras(b, _pick(rng, ("go", "web", "git")), knob["extra"])
    b.say(answer)


# --- the session ---------------------------------------------------------------------------------------------------
SYSTEM = ("You are Claude Code, an interactive CLI agent for software engineering tasks. Use the tools available to you to "
          "help the user: Read, Edit, Write, Bash, Grep, Glob, TodoWrite and WebFetch. Prefer Grep and Glob over shell find and "
          "grep; read a file before editing it; use TodoWrite for multi-step work. Be concise: answers are read in a terminal.\n\n"
          f"<env>\nWorking directory: {ROOT}\nIs directory a git repo: Yes\nPlatform: linux\nOS Version: Linux 6.8.0-45-generic\n</env>\n\n"
          "Repository layout (from CLAUDE.md): services/ holds the Go services (orders, billing, gateway, notify, inventory, auth), "
          "one module each, tied together by go.work; libs/go holds shared Go packages; web/ is a pnpm workspace with the React "
          "app in web/src and packages under web/packages; tools/hafenctl is the Rust CLI; infra/ is Terraform (envs/ and modules/).")
LAST_ASKS = ("ok, what's next on the list?", "run the whole go suite one more time before i go", "passt. and now the changelog",
             "kurze frage: anything still open from today?", "ok lets do the web tests next", "feierabend gleich. what's the state of the branch?")


OPENING = 8  # messages of his first turn: the agent gets its bearings with one call of each looking tool, side by side


def opening(b: _Builder) -> None:
    """The session's first turn: he asks the agent to look around; Glob, Read, Grep, WebFetch and Edit in one message."""
    rng = b.rng
    b.user(_typo(rng, _pick(rng, ("morning. get your bearings: skim the orders service, find where we set the pool size, and read the pgxpool "
                                  "docs page kai linked. also fix the typo in the readme title while you're at it",
                                  "moin. before we start: look around services/orders, grep for the pool size, check the pgxpool docs, "
                                  "and the readme title has a typo, fix that pls"))))
    t = _Turn(b, "go")
    t.svc, t.files, t.code = "orders", GO_FILES["orders"], "go"
    readme = ["# hafen monorep", "", "Go services, the web app, the hafenctl CLI and the Terraform for all of it.", "",
              "See CONTRIBUTING.md before you open a PR."]
    calls: list[Call] = [("Glob", {"pattern": "services/orders/**/*.go"}, "\n".join(f"{ROOT}/{f}" for f in sorted(GO_FILES["orders"]))),
                         t.read(),
                         ("Grep", {"pattern": "max_conns", "path": ".", "output_mode": "content", "-n": True},
                          "\n".join(f"{f}:{7}:  max_conns: {rng.randint(8, 40)}" for f in CONF_FILES[-2:])),
                         ("WebFetch", {"url": DOC_PAGES[0][0], "prompt": "What does this page say about MaxConns and its default?"},
                          webfetch_out(rng, b.size(1500, hi=5000), DOC_PAGES[0])),
                         ("Edit", {"file_path": f"{ROOT}/README.md", "old_string": "# hafen monorep", "new_string": "# hafen monorepo"},
                          f"The file {ROOT}/README.md has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
                          + _numbered(["# hafen monorepo"] + readme[1:]))]
    b.act(calls, "Looking around first.")
    b.say("Orders has the usual http/store/domain split; the pool size comes from `max_conns` in each service's config; the pgxpool "
          "default is max(4, NumCPU). README title fixed.")


@dataclass
class Event:
    """An episode: where it should come, how many messages it takes, and what it says."""

    frac: float
    base: int
    run: Callable[[_Builder], None]
    knobs: list[tuple[dict[str, Any], str]] = field(default_factory=list)  # its routine calls, two messages each
    lite: dict[str, Any] | None = None  # the data whose "lite" flag makes it two messages shorter (a short session)
    target: float = 0.0

    @property
    def est(self) -> int:
        return self.base + 2 * sum(d[k] for d, k in self.knobs) - (2 if self.lite is not None and self.lite.get("lite") else 0)


def _extra(rng: random.Random, n: int, lo: int, hi: int) -> int:
    """Routine calls an episode's loop makes: up to ``hi`` in a long session, none to a few in a short one."""
    return round(rng.randint(lo, hi) * _scale(n))


def plants(rng: random.Random, n: int) -> tuple[list[Plant], list[Event]]:
    """Every fact with its value drawn, and the episodes that plant them, in the order they should come."""
    k = per_kind(n)
    out: list[Plant] = []
    events: list[Event] = []

    # the slots the facts sit in, spread over the session, each kind in every part of it
    slots = [0.05 + (i + rng.uniform(0.2, 0.8)) * 0.78 / (8 * k) for i in range(8 * k)]
    kinds = [kind for kind in KINDS for _ in range(k)]
    rng.shuffle(kinds)
    firsts = [i for i, kind in enumerate(kinds) if kind == "instruction"][:2]
    for j, i in enumerate(firsts):  # his first two rules open the session
        kinds[i], kinds[j] = kinds[j], kinds[i]
    for i, kind in enumerate(kinds):  # a correction needs room before it for what it corrects
        if kind in ("correction", "decision") and slots[i] < 0.12:
            for j in range(len(kinds) - 1, 1, -1):
                if kinds[j] not in ("correction", "decision", "instruction") and slots[j] > 0.3:
                    kinds[i], kinds[j] = kinds[j], kinds[i]
                    break
    by_kind: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for frac, kind in zip(slots, kinds):
        by_kind[kind].append(frac)

    def before(frac: float, near: bool) -> float:
        room = frac - 0.05
        gap = rng.uniform(0.005, min(0.03, room)) if near or room < 0.08 else rng.uniform(0.08, min(0.45, room))
        return frac - gap

    # instructions
    forms = ["direct", "de", "second", "doc", "indirect", "cond", "pref", "review", "after_paste", "doc", "de", "indirect"][:k]
    pool = rules(rng)
    rng.shuffle(pool)
    docs = 0
    for i, (form, frac) in enumerate(zip(forms, by_kind["instruction"])):
        need = {"second": "direct", "doc": "doc", "review": "point", "after_paste": "direct"}.get(form, form)
        rule = next(r for r in pool if need in r)
        pool.remove(rule)
        p = Plant("instruction", rule["value"], rule["query"], data={"rule": rule, "form": form})
        if form == "doc":
            p.data["which"] = docs % 2 if i < 9 else 1 - p.data.get("which", 0)
            docs += 1
        if form == "second":
            p.data["topic"] = _pick(rng, ("go", "web", "rust"))
            p.data["extra"] = _extra(rng, n, 1, 9)
        out.append(p)
        second = form == "second"
        events.append(Event(frac, 4 if second else 2, partial(ep_instruction, p=p), [(p.data, "extra")] if second else []))

    # corrections
    cpool = corrections(rng)
    rng.shuffle(cpool)
    cforms = list(CORRECT)
    rng.shuffle(cforms)
    for i, frac in enumerate(by_kind["correction"]):
        c = cpool[i]
        p = Plant("correction", c["value"], c["query"], stale=c["stale"], data=dict(c))
        p.data.update(form=cforms[i % len(cforms)], short=c["what"].replace("the ", "", 1), topic=_pick(rng, ("go", "git", "deps")),
                      extra=_extra(rng, n, 0, 4), extra_stale=_extra(rng, n, 0, 6))
        out.append(p)
        stale_data: dict[str, Any] = {}
        p.data["stale_data"] = stale_data
        events.append(Event(frac, 4, partial(ep_correction, p=p), [(p.data, "extra")], p.data))
        events.append(Event(before(frac, i % 3 == 2), 4, partial(ep_stale, p=p), [(p.data, "extra_stale")], stale_data))

    # decisions, a third of them revising an earlier pick of his
    topics = list(DECISIONS)
    rng.shuffle(topics)
    revised = max(1, k // 3) if k > 1 else 0
    for i, frac in enumerate(by_kind["decision"]):
        topic, options = topics[i][0], tuple(topics[i][1])
        if "{a}" in options[0]:
            nums = rng.sample(range(24, 97, 4), 3)
            options = tuple(o.replace("{a}", str(nums[0])).replace("{b}", str(nums[1])).replace("{c}", str(nums[2])) for o in options)
        picks = rng.sample(options, 2)
        p = Plant("decision", picks[0], f"What did he decide to use for {topic}?", data={"topic": topic, "todo": rng.random() < 0.4,
                                                                                          "todo_stale": rng.random() < 0.4})
        if i < revised:
            p.stale = picks[1]
            events.append(Event(before(frac, False), 4 if p.data["todo_stale"] else 2, partial(ep_stale, p=p)))
        out.append(p)
        events.append(Event(frac, 4 if p.data["todo"] else 2, partial(ep_decision, p=p), lite=p.data if p.data["todo"] else None))

    # plans
    steps = plan_steps(rng)
    rng.shuffle(steps)
    for i, frac in enumerate(by_kind["plan"]):
        step, value, hint = steps[i]
        p = Plant("plan", value, f"In the plan he laid out, what was {hint}?",
                  data={"step": step, "at": rng.randint(0, 3), "form": PLAN_FORMS[i % len(PLAN_FORMS)]})
        out.append(p)
        events.append(Event(frac, 4, partial(ep_plan, p=p)))  # (never without its TodoWrite: the one sure use of it)

    # files
    jobs = list(FILE_JOBS)
    rng.shuffle(jobs)
    for i, frac in enumerate(by_kind["file"]):
        ask, path = jobs[i]
        path = path.replace("{n}", f"{rng.randint(17, 60):04d}" if "adr" in path else f"{rng.randint(40, 99):05d}")
        p = Plant("file", path, f"Which new file did the agent write for: {ask}?",
                  data={"ask": ask, "extra": _extra(rng, n, 1, 8), "test": rng.random() < 0.5})
        out.append(p)
        events.append(Event(frac, 4 + (2 if p.data["test"] else 0), partial(ep_file, p=p), [(p.data, "extra")]))

    # findings
    fpool = findings(rng)
    rng.shuffle(fpool)
    for i, frac in enumerate(by_kind["finding"]):
        f = fpool[i]
        p = Plant("finding", f["value"], f["query"], data=dict(f))
        p.data.update(extra=_extra(rng, n, 1, 9), after=_extra(rng, n, 0, 3), style=_pick(rng, ("quote", "quote", "plain")))
        out.append(p)
        events.append(Event(frac, 4, partial(ep_finding, p=p), [(p.data, "extra"), (p.data, "after")]))

    # errors: half resolved, some at once and some later on his word
    epool = errors(rng)
    rng.shuffle(epool)
    modes = ["now", "later"] * (k // 4) + ["now"] * (k // 2 % 2)
    modes += [""] * (k - len(modes))
    rng.shuffle(modes)
    for i, frac in enumerate(by_kind["error"]):
        e = epool[i]
        p = Plant("error", e["value"], e["query"], data=dict(e))
        p.data.update(mode=modes[i], extra=_extra(rng, n, 0, 6), after=_extra(rng, n, 0, 3))
        out.append(p)
        events.append(Event(frac, 4 + (4 if modes[i] == "now" else 0), partial(ep_error, p=p), [(p.data, "extra"), (p.data, "after")]))
        if modes[i] == "later":
            events.append(Event(min(0.83, frac + rng.uniform(0.02, 0.08)), 4, partial(ep_rerun, p=p)))

    # identifiers: said by him, or printed by a tool first
    said, printed = identifiers(rng)
    rng.shuffle(said)
    rng.shuffle(printed)
    order = [x for pair in zip(said, printed) for x in (pair if rng.random() < 0.5 else pair[::-1])]
    order += said[len(printed):] + printed[len(said):]
    for i, frac in enumerate(by_kind["identifier"]):
        ident = order[i]
        is_said = ident in said
        p = Plant("identifier", ident["value"], ident["query"], data=dict(ident))
        p.data.update(said=is_said, topic=_pick(rng, ("git", "go")), extra=0 if is_said else _extra(rng, n, 0, 6))
        out.append(p)
        events.append(Event(frac, 4, partial(ep_identifier, p=p), [(p.data, "extra")], p.data if is_said else None))

    # what he pastes
    count = max(1, int(8 * n / 400)) if n < 400 else round(8 * (n / 400) ** 0.5)  # 8 at 400 messages, one of each source
    sources = [s for _ in range(count // len(PASTES) + 1) for s in rng.sample(list(PASTES), len(PASTES))]
    for i in range(count):
        frac = 0.05 + (i + rng.uniform(0.1, 0.9)) * 0.78 / count
        knob = {"extra": _extra(rng, n, 0, 5)}
        events.append(Event(frac, 2, partial(ep_pasted, source=sources[i], knob=knob), [(knob, "extra")]))
    # in a short session the episodes' loops are cut until routine work keeps a fifth of the room
    room = 0.8 * (math.floor(0.835 * n) - max(math.ceil(0.045 * n), 1 + OPENING))
    total = sum(e.est for e in events)
    while total > room:
        knobs = [(d, key) for e in events for d, key in e.knobs if d[key] > 0]
        if not knobs:
            break
        d, key = _pick(rng, knobs)
        d[key] -= 1
        total -= 2
    lites = [e.lite for e in events if e.lite is not None]
    rng.shuffle(lites)
    while total > room and lites:  # then the shortest form of some episodes: no call where none is needed
        lites.pop()["lite"] = True
        total -= 2
    return out, events


def _layout(events: list[Event], n: int) -> list[Event]:
    """The events in order of their place, each given a start so that all fit between 4.5% and 83.5% of the session
    with the routine work between them in proportion to how far apart they were meant to be."""
    events = sorted(events, key=lambda e: e.frac)
    lo, hi = max(math.ceil(0.045 * n), 1 + OPENING), math.floor(0.835 * n)
    total = sum(e.est for e in events)
    if total > hi - lo:
        raise RuntimeError(f"episodes take {total} messages, more than the {hi - lo} they may")
    free = hi - lo - total
    first, last = events[0].frac, events[-1].frac
    pos, prev = float(lo), first
    for e in events:
        pos += (e.frac - prev) / max(1e-9, last - first) * free
        prev = e.frac
        e.target = pos
        pos += e.est
    return events


def _probe() -> str:
    """Fixed texts the filler says whatever it draws: a planted value found here is drawn again."""
    r = random.Random(0)
    parts = [SYSTEM, *LAST_ASKS, *(x for v in NOTES.values() for x in v if x), *COMMIT_SUBJECTS, *CONTRIBUTING, *ADR, *REVIEW_POINTS, *GERMAN_BITS, TODO_RESULT]
    parts += [x for pair in CHAT for x in pair] + [x for v in ASKS.values() for _, x in v] + [x for v in DONE.values() for x in v]
    parts += [x for _, t, paras in DOC_PAGES for x in (t, *paras)] + ["\n".join(conf_lines(r, f)) for f in CONF_FILES]
    parts += [x for make, leads, afters, answer in PASTES.values() for x in (make(r), *leads, *afters, answer)]
    return "\n".join(p for p in parts if p)


PROBE = _probe()


def _check_values(planted: list[Plant]) -> None:
    """Values are unique, none inside another or in what the filler always says."""
    values = [v for p in planted for v in (p.value, p.stale) if v is not None]
    for i, v in enumerate(values):
        if v in PROBE or any(v in w for j, w in enumerate(values) if j != i):
            raise _Dirty(v)
    for p in planted:
        if p.value in p.query or (p.stale is not None and p.stale in p.query):
            raise _Dirty(p.query)


def _check_session(msgs: list[Message], planted: list[Plant]) -> None:
    """Each value first and only in its own message and the 8 after it; a stale value in its own and the 12 after, or
    beside its correction; a resolved error not in the run that resolves it."""
    texts = [text_of(m) for m in msgs]
    big = "\x00".join(texts)
    starts = []
    pos = 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1

    def holders(v: str) -> list[int]:
        out, at = [], big.find(v)
        while at >= 0:
            i = _bisect(starts, at)
            out.append(i)
            at = big.find(v, starts[i + 1] if i + 1 < len(starts) else len(big))
        return out

    for p in planted:
        hv = holders(p.value)
        if not hv or hv[0] != p.index or any(i > p.index + 8 for i in hv):
            raise _Dirty(f"{p.kind} {p.value}: {hv} vs {p.index}")
        if p.stale is not None:
            hs = holders(p.stale)
            if not hs or hs[0] != p.stale_index or any(not (p.stale_index <= i <= p.stale_index + 12 or p.index <= i <= p.index + 8) for i in hs):
                raise _Dirty(f"stale {p.stale}: {hs}")
        if p.resolved is not None and p.value in texts[p.resolved]:
            raise _Dirty("resolved")


def _bisect(starts: list[int], at: int) -> int:
    """The index of the last start at or before ``at`` (0 when there is none)."""
    return max(0, bisect.bisect_right(starts, at) - 1)


def _session(rng: random.Random, seed: int, n: int, boost: float) -> Session:
    planted, events = plants(rng, n)
    _check_values(planted)
    forbidden = [v for p in planted for v in (p.value, p.stale) if v is not None]
    b = _Builder(rng, n, forbidden, boost)
    b._add({"role": "system", "content": SYSTEM})
    b.unit(lambda: opening(b))
    for e in _layout(events, n):
        gap = round(e.target) - len(b.msgs)
        if gap >= 2:
            fill(b, 2 if gap == 3 else gap)
        e.run(b)
    tail = n - len(b.msgs)
    if tail < 3:
        raise RuntimeError(f"episodes overran the session ({tail} messages left)")
    fill(b, tail - 1)
    b.user(_typo(rng, _pick(rng, LAST_ASKS)))
    _check_session(b.msgs, planted)
    facts = [Fact(p.kind, p.value, p.index, p.query, p.stale, p.stale_index, p.resolved) for p in planted]
    return Session(b.msgs, sorted(facts, key=lambda f: (f.index, f.kind)), seed, b.pasted)


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages (60 or more), the same for the same seed."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_monorepo sessions have at least {MIN_MESSAGES} messages, not {messages}")
    rng = random.Random(seed)
    boost, session = 1.0, None
    for _ in range(16):  # a draw that puts a planted value where it must not be is drawn again, from where rng stands
        try:
            session = _session(rng, seed, messages, boost)
        except _Dirty:
            continue
        per = session.chars() / messages
        if 1380 <= per <= 1700:
            return session
        boost *= PER_MESSAGE / per  # a session far off the average size (a short one, few outputs) is drawn again, aiming off
    if session is None:
        raise RuntimeError(f"no clean session for seed {seed} at {messages} messages")
    return session
