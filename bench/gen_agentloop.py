"""A coding agent's long tool loops in a TypeScript monorepo, with planted facts, for the fidelity bench.

Written from its own short spec, without reading the engine under test.

    from gen_agentloop import make_session
    session = make_session(seed=1, messages=400)    # about 600k characters (~150k tokens)
    session = make_session(seed=1, messages=3000)   # about 4.8M characters

The project is the ``tisserand`` monorepo of a small company in Lyon: pnpm workspaces, a Next.js app
(``apps/web``), a Fastify API (``apps/api``), a shared React library (``packages/ui``), Prisma and Postgres
(``packages/db``), vitest, Playwright, eslint and tsc. One developer, Camille, writes rarely and tersely, lowercase,
with typos and now and then in French. Each of her lines sets off a long autonomous loop of 5 to 40 tool calls
(Read, Edit, Write, Bash, Grep, Glob, TodoWrite, WebFetch, WebSearch, Task; some in parallel, OpenAI chat format)
that ends in a short text answer. Tool results are long: numbered file listings, grep hits, vitest, Playwright, tsc
and eslint runs, git diffs and logs, Prisma migrations, stack traces, fetched docs. She pastes what others wrote or
what machines printed (a Sentry issue, a colleague's PR review whose imperatives are his, a GitHub Actions log, a
designer's Figma note, a customer's email, a ``package.json`` or ``tsconfig`` snippet): those are listed in
``Session.pasted``. Once or twice she pastes a conventions document and adopts it: its rules are hers, and it is
not listed as pasted.

``Session.facts`` (kinds in :data:`KINDS`) are what a compacted context must keep:

* instruction: her standing rules, said casually, indirectly, reason first, after an unrelated request, in French,
  as a fact about herself, or deep inside the adopted document; the value is a distinctive piece of the rule;
* correction: a value she gave earlier, corrected loosely and often far away (``stale`` and ``stale_index`` say
  what and where), often a near miss of the old value;
* decision: a choice she makes; some revise an earlier choice, and then the revision alone is the fact, with the
  first choice as its ``stale`` (the first choice is not a fact of its own);
* error: a whole line of a Bash run's output; some are resolved by a later run of the same command without it;
* file: the path of a file the agent wrote or edited, in that message's single tool call;
* identifier: a Sentry id, PR, commit, migration, flag key, Stripe price ... in her words or in a tool result;
* finding: part of one line a tool returned that the work hangs on (a config value, the frame a stack trace
  blames, the slow statement in a log, a constant);
* plan: a distinctive step of a plan she lays out.

Planted values come from a vocabulary the filler never draws from (one-off requests, chit-chat and routine loops
use other components, features, ids and paths), so a value found in a compacted prompt was kept, not re-invented.
Same seed and size, same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sessiongen import Fact, Session, text_of

Message = dict[str, Any]
Call = tuple[str, dict[str, Any], str]  # tool name, arguments, what the tool returned
Step = tuple[str, list[Call]]  # the assistant's text beside its calls, and the calls (several run in parallel)

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("Read", "Edit", "Write", "Bash", "Grep", "Glob", "TodoWrite", "WebFetch", "WebSearch", "Task")
MIN_EPISODE = 9  # her line, a few steps with their calls (some in parallel) and results, the answer
MIN_CALLS = 6  # calls a loop makes at least (when its messages allow; never fewer than five)
LOW, HIGH = 0.04, 0.82  # where planted material is aimed, as shares of the session
ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
B36 = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
HOME = "/home/camille/code/tisserand"


def per_kind(messages: int) -> int:
    """Facts of each kind: 6 at 400 messages, 12 at 3000, linear between and beyond, fewer below, at least 1."""
    if messages <= 400:
        return max(1, round(6 * messages / 400))
    return max(1, round(6 + 6 * (messages - 400) / 2600))


def _hex(rng: random.Random, n: int) -> str:
    return f"{rng.getrandbits(4 * n):0{n}x}"


def _alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choices(ALNUM, k=n))


def _numbered(text: str, start: int = 1) -> str:
    """A file as the Read tool shows it: right-aligned line numbers and an arrow."""
    return "\n".join(f"{i:>6}→{line}" for i, line in enumerate(text.split("\n"), start))


def _camel(name: str) -> str:
    parts = name.replace("_", "-").split("-")
    return parts[0][:1].lower() + parts[0][1:] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def _pascal(name: str) -> str:
    c = _camel(name)
    return c[:1].upper() + c[1:]


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("_")


def _typo(rng: random.Random, text: str) -> str:
    """Swaps two letters of one longer word, as fast typing does."""
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) > 4 and w.isalpha()]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randrange(len(w) - 1)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return " ".join(words)


def _args(**kwargs: Any) -> dict[str, Any]:
    return kwargs


# --- the filler's own vocabulary: nothing planted is ever drawn from it --------------------------------------------

UI = ("Button", "Card", "Modal", "Dialog", "Tabs", "Tooltip", "Toast", "Avatar", "Badge", "Select", "Combobox",
      "DatePicker", "DataTable", "Pagination", "Sidebar", "Navbar", "Skeleton", "Spinner", "Checkbox", "Switch",
      "Popover", "DropdownMenu", "Breadcrumbs", "EmptyState", "Alert", "Accordion", "Drawer", "TextField", "TextArea",
      "FileDrop", "ProgressBar", "Tag", "CommandPalette", "AvatarGroup", "SegmentedControl", "Slider", "RadioGroup")
FEATURES = ("settings", "profile", "team", "onboarding", "search", "notifications", "comments", "calendar",
            "projects", "dashboard", "activity", "files", "invites", "integrations", "api-keys", "audit-log")
HOOKS = ("useDebounce", "useMediaQuery", "useDisclosure", "useLocalStorage", "useClickOutside", "usePagination",
         "useHotkeys", "useIntersection", "useCopyToClipboard", "usePrevious", "useEventListener", "useToastQueue")
ROUTES = ("users", "teams", "projects", "comments", "notifications", "search", "files", "invites", "sessions",
          "health", "api-keys", "audit-events")
MODELS = (("User", "email"), ("Team", "slug"), ("Project", "teamId"), ("Comment", "projectId"),
          ("Notification", "readAt"), ("Invite", "token"), ("Session", "expiresAt"), ("File", "checksum"),
          ("Membership", "role"), ("AuditEvent", "actorId"), ("ApiKey", "prefix"))
SPECS = ("login", "signup", "onboarding", "project-create", "comments", "search", "settings-profile", "team-invite",
         "file-upload", "notifications", "command-palette", "dark-mode")
DEPS = (("eslint", "9.4.0"), ("typescript", "5.4.5"), ("next", "14.2.4"), ("vitest", "1.6.0"),
        ("@playwright/test", "1.44.1"), ("prisma", "5.15.0"), ("fastify", "4.27.0"), ("react-hook-form", "7.51.5"),
        ("@tanstack/react-query", "5.40.0"), ("tailwindcss", "3.4.4"), ("storybook", "8.1.6"), ("tsx", "4.15.2"),
        ("turbo", "2.0.3"), ("@testing-library/react", "16.0.0"), ("pino", "9.2.0"), ("msw", "2.3.1"))
PEOPLE = ("Théo", "Inès", "Karim", "Julie", "Romain", "Chloé", "Hugo", "Léa", "Nadia", "Bastien")
PROPS = ("size", "tone", "disabled", "loading", "icon", "fullWidth", "align", "dense", "onDismiss", "description")
COMMITS = ("fix(@f@): keep the filter in the url on back nav", "feat(ui): @C@ gets a compact size",
           "chore(deps): bump @D@", "refactor(api): split the @R@ plugin", "test(e2e): stabilise @S@",
           "fix(ui): focus ring on @C@ in safari", "feat(@f@): empty state copy from design",
           "chore: prune unused exports in packages/ui", "fix(api): 404 instead of 500 on missing @m@",
           "feat(db): index @M@.@x@", "docs: storybook notes for @C@", "fix(web): hydration warning on /@f@",
           "chore(ci): cache playwright browsers", "perf(web): lazy-load the @C@ on /@f@",
           "fix(@f@): debounce the search box", "feat(api): pagination on GET /@R@", "chore: lint-staged for ui")


def _ctx(rng: random.Random) -> dict[str, Any]:
    """What one routine loop is about: a component, a feature, a hook, a route, a model, a spec, a dependency."""
    comp, feat, hook = rng.choice(UI), rng.choice(FEATURES), rng.choice(HOOKS)
    model, fld = rng.choice(MODELS)
    dep, ver = rng.choice(DEPS)
    route, spec, person = rng.choice(ROUTES), rng.choice(SPECS), rng.choice(PEOPLE)
    ctx: dict[str, Any] = {
        "comp": comp, "feat": feat, "Feat": _pascal(feat), "hook": hook,
        "hook2": hook + rng.choice(("Value", "State", "Store", "Ref")), "route": route, "model": model,
        "field": fld, "spec": spec, "dep": dep, "ver": ver, "person": person, "prop": rng.choice(PROPS),
        "n": rng.randint(2, 9), "app": rng.choice(("web", "api")),
        "comp_path": f"packages/ui/src/{comp}/{comp}.tsx", "comp_test": f"packages/ui/src/{comp}/{comp}.test.tsx",
        "comp_story": f"packages/ui/src/{comp}/{comp}.stories.tsx", "hook_path": f"packages/ui/src/hooks/{hook}.ts",
        "route_path": f"apps/api/src/routes/{route}.ts", "route_test": f"apps/api/src/routes/{route}.test.ts",
        "page_path": f"apps/web/src/app/(app)/{feat}/page.tsx", "spec_path": f"e2e/{spec}.spec.ts",
        "feat_dir": f"apps/web/src/features/{feat}",
    }
    ctx["tokens"] = (("@C@", comp), ("@c@", _camel(comp)), ("@H@", hook), ("@F@", ctx["Feat"]), ("@f@", feat),
                     ("@R@", route), ("@r@", _camel(route)), ("@M@", model), ("@m@", _camel(model)), ("@x@", fld),
                     ("@S@", spec), ("@P@", person), ("@D@", f"{dep} to {ver}"))
    return ctx


def _fill(template: str, ctx: dict[str, Any]) -> str:
    for token, value in ctx["tokens"]:
        if token in template:
            template = template.replace(token, value)
    return template


# --- file bodies the agent reads (tokens: @C@ component, @c@ camelCase, @H@ hook, @F@/@f@ feature, @R@/@r@ route,
# @M@/@m@ model, @x@ field, @S@ e2e spec, @P@ a colleague) -----------------------------------------------------------

COMPONENT = '''import * as React from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "../utils/cn";
import { Spinner } from "../Spinner/Spinner";

const @c@Variants = cva(
  "relative inline-flex items-center gap-2 rounded-md text-sm font-medium transition-colors",
  {
    variants: {
      tone: {
        neutral: "bg-neutral-100 text-neutral-900 hover:bg-neutral-200 dark:bg-neutral-800 dark:text-neutral-50",
        primary: "bg-indigo-600 text-white hover:bg-indigo-700 focus-visible:ring-indigo-400",
        danger: "bg-red-600 text-white hover:bg-red-700 focus-visible:ring-red-400",
        ghost: "bg-transparent hover:bg-neutral-100 dark:hover:bg-neutral-800",
      },
      size: {
        sm: "h-8 px-3 text-xs",
        md: "h-9 px-4",
        lg: "h-11 px-6 text-base",
      },
    },
    defaultVariants: { tone: "neutral", size: "md" },
  },
);

export interface @C@Props
  extends React.HTMLAttributes<HTMLDivElement>,
    VariantProps<typeof @c@Variants> {
  loading?: boolean;
  disabled?: boolean;
  /** Rendered before the children, hidden while loading. */
  icon?: React.ReactNode;
}

export const @C@ = React.forwardRef<HTMLDivElement, @C@Props>(function @C@(
  { className, tone, size, loading = false, disabled = false, icon, children, ...props },
  ref,
) {
  const describedBy = React.useId();
  return (
    <div
      ref={ref}
      role="group"
      aria-busy={loading || undefined}
      aria-disabled={disabled || undefined}
      aria-describedby={loading ? describedBy : undefined}
      data-state={loading ? "loading" : "idle"}
      className={cn(@c@Variants({ tone, size }), disabled && "pointer-events-none opacity-50", className)}
      {...props}
    >
      {loading ? <Spinner size="sm" aria-hidden /> : icon}
      {children}
      {loading ? (
        <span id={describedBy} className="sr-only">
          Loading
        </span>
      ) : null}
    </div>
  );
});'''

COMPONENT_CONTEXT = '''type @C@ContextValue = {
  open: boolean;
  setOpen: (open: boolean) => void;
  triggerId: string;
  contentId: string;
};

const @C@Context = React.createContext<@C@ContextValue | null>(null);

export function use@C@Context(): @C@ContextValue {
  const value = React.useContext(@C@Context);
  if (!value) {
    throw new Error("use@C@Context must be used inside <@C@.Root>");
  }
  return value;
}

export function @C@Root({ children, defaultOpen = false }: { children: React.ReactNode; defaultOpen?: boolean }) {
  const [open, setOpen] = React.useState(defaultOpen);
  const triggerId = React.useId();
  const contentId = React.useId();
  const value = React.useMemo(() => ({ open, setOpen, triggerId, contentId }), [open, triggerId, contentId]);
  return <@C@Context.Provider value={value}>{children}</@C@Context.Provider>;
}
'''

HOOK = '''import { useCallback, useEffect, useRef, useState } from "react";

export interface @H@Options {
  delay?: number;
  enabled?: boolean;
  onChange?: (value: string) => void;
}

/**
 * Shared by the @f@ screens and a few packages/ui components.
 * Keep it free of app imports: packages/ui must not depend on apps/web.
 */
export function @H@(initial: string, { delay = 250, enabled = true, onChange }: @H@Options = {}) {
  const [value, setValue] = useState(initial);
  const [settled, setSettled] = useState(initial);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(onChange);
  latest.current = onChange;

  useEffect(() => {
    if (!enabled) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setSettled(value);
      latest.current?.(value);
    }, delay);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [value, delay, enabled]);

  const reset = useCallback(() => {
    setValue(initial);
    setSettled(initial);
  }, [initial]);

  return { value, settled, setValue, reset, pending: value !== settled } as const;
}'''

ROUTE = '''import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { prisma } from "@tisserand/db";
import { requireSession } from "../plugins/auth";
import { notFound } from "../lib/http-errors";

const listQuery = z.object({
  teamId: z.string().cuid(),
  cursor: z.string().optional(),
  take: z.coerce.number().int().min(1).max(100).default(25),
});

const createBody = z.object({
  name: z.string().min(1).max(120),
  description: z.string().max(2000).optional(),
});

export const @r@Routes: FastifyPluginAsync = async (app) => {
  app.addHook("preHandler", requireSession);

  app.get("/@R@", async (request, reply) => {
    const query = listQuery.parse(request.query);
    const rows = await prisma.@m@.findMany({
      where: { teamId: query.teamId },
      take: query.take + 1,
      ...(query.cursor ? { cursor: { id: query.cursor }, skip: 1 } : {}),
      orderBy: { createdAt: "desc" },
    });
    const hasMore = rows.length > query.take;
    return reply.send({ items: rows.slice(0, query.take), nextCursor: hasMore ? rows[query.take - 1]?.id : null });
  });

  app.get<{ Params: { id: string } }>("/@R@/:id", async (request, reply) => {
    const row = await prisma.@m@.findUnique({ where: { id: request.params.id } });
    if (!row || row.teamId !== request.session.teamId) throw notFound("@m@");
    return reply.send(row);
  });

  app.post("/@R@", async (request, reply) => {
    const body = createBody.parse(request.body);
    const created = await prisma.@m@.create({ data: { ...body, teamId: request.session.teamId } });
    request.log.info({ id: created.id }, "@R@ created");
    return reply.code(201).send(created);
  });

  app.delete<{ Params: { id: string } }>("/@R@/:id", async (request, reply) => {
    await prisma.@m@.deleteMany({ where: { id: request.params.id, teamId: request.session.teamId } });
    return reply.code(204).send();
  });
};'''

UI_TEST = '''import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { @C@ } from "./@C@";

describe("@C@", () => {
  it("renders its children", () => {
    render(<@C@>Save changes</@C@>);
    expect(screen.getByText("Save changes")).toBeInTheDocument();
  });

  it("marks itself busy while loading", () => {
    render(<@C@ loading>Saving</@C@>);
    expect(screen.getByRole("group")).toHaveAttribute("aria-busy", "true");
  });

  it("ignores clicks when disabled", async () => {
    const onClick = vi.fn();
    render(
      <@C@ disabled onClick={onClick}>
        Delete
      </@C@>,
    );
    await userEvent.click(screen.getByText("Delete"));
    expect(onClick).not.toHaveBeenCalled();
  });

  it.each(["neutral", "primary", "danger", "ghost"] as const)("applies the %s tone", (tone) => {
    render(<@C@ tone={tone}>x</@C@>);
    expect(screen.getByRole("group").className).toMatch(tone === "ghost" ? /bg-transparent/ : /bg-/);
  });

  it("forwards its ref", () => {
    const ref = { current: null as HTMLDivElement | null };
    render(<@C@ ref={ref}>x</@C@>);
    expect(ref.current).toBeInstanceOf(HTMLDivElement);
  });
});'''

API_TEST = '''import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import { resetDb, seedTeam } from "../../test/db";

describe("@R@ routes", () => {
  const app = buildApp({ logger: false });
  let team: Awaited<ReturnType<typeof seedTeam>>;

  beforeAll(async () => {
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await resetDb();
    team = await seedTeam({ members: 2 });
  });

  it("lists only the caller's team", async () => {
    const res = await app.inject({ method: "GET", url: `/@R@?teamId=${team.id}`, headers: team.ownerHeaders });
    expect(res.statusCode).toBe(200);
    expect(res.json().items.every((row: { teamId: string }) => row.teamId === team.id)).toBe(true);
  });

  it("returns 404 for another team's row", async () => {
    const other = await seedTeam({ members: 1 });
    const res = await app.inject({ method: "GET", url: `/@R@/${other.sampleId}`, headers: team.ownerHeaders });
    expect(res.statusCode).toBe(404);
  });

  it("rejects an empty name", async () => {
    const res = await app.inject({ method: "POST", url: "/@R@", payload: { name: "" }, headers: team.ownerHeaders });
    expect(res.statusCode).toBe(400);
  });
});'''

E2E = '''import { expect, test } from "@playwright/test";
import { seedTeam, signIn } from "./fixtures";

test.describe("@S@", () => {
  test.beforeEach(async ({ page, request }) => {
    const team = await seedTeam(request, { members: 3 });
    await signIn(page, team.owner);
  });

  test("happy path", async ({ page }) => {
    await page.goto("/@f@");
    await expect(page.getByRole("heading", { name: /@F@/i })).toBeVisible();
    await page.getByRole("button", { name: "New" }).click();
    await page.getByLabel("Name").fill("Quarterly review");
    await page.getByRole("button", { name: "Create" }).click();
    await expect(page.getByRole("status")).toHaveText(/created/i);
  });

  test("keeps the filter after reload", async ({ page }) => {
    await page.goto("/@f@?q=review");
    await page.reload();
    await expect(page.getByRole("searchbox")).toHaveValue("review");
  });

  test("shows the empty state", async ({ page }) => {
    await page.goto("/@f@?q=nothing-matches-this");
    await expect(page.getByText("Nothing here yet")).toBeVisible();
  });
});'''

PAGE = '''import { notFound } from "next/navigation";
import { Suspense } from "react";
import { getSession } from "@/lib/session";
import { api } from "@/lib/api";
import { @C@, Skeleton } from "@tisserand/ui";
import { @F@List } from "@/features/@f@/@F@List";
import { @F@Toolbar } from "@/features/@f@/@F@Toolbar";

export const dynamic = "force-dynamic";

type Props = { params: { teamSlug: string }; searchParams: { q?: string; page?: string } };

export default async function @F@Page({ params, searchParams }: Props) {
  const session = await getSession();
  if (!session) notFound();
  const team = await api.teams.bySlug(params.teamSlug, { session });
  if (!team) notFound();
  const page = Number(searchParams.page ?? 1);

  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-6 py-8">
      <header className="flex items-center justify-between">
        <h1 className="text-2xl font-semibold tracking-tight">@F@</h1>
        <@F@Toolbar teamId={team.id} initialQuery={searchParams.q ?? ""} />
      </header>
      <Suspense fallback={<Skeleton className="h-96 w-full" />}>
        <@F@List teamId={team.id} query={searchParams.q} page={page} />
      </Suspense>
      <@C@ tone="ghost" size="sm">
        Showing page {page}
      </@C@>
    </main>
  );
}'''

SCHEMA = '''generator client {
  provider        = "prisma-client-js"
  previewFeatures = ["fullTextSearch", "relationJoins"]
}

datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model User {
  id          String       @id @default(cuid())
  email       String       @unique
  name        String?
  avatarUrl   String?
  createdAt   DateTime     @default(now())
  memberships Membership[]
  comments    Comment[]
}

model Team {
  id          String       @id @default(cuid())
  slug        String       @unique
  name        String
  createdAt   DateTime     @default(now())
  memberships Membership[]
  projects    Project[]
  invites     Invite[]
}

model Membership {
  id     String @id @default(cuid())
  role   Role   @default(MEMBER)
  userId String
  teamId String
  user   User   @relation(fields: [userId], references: [id], onDelete: Cascade)
  team   Team   @relation(fields: [teamId], references: [id], onDelete: Cascade)

  @@unique([userId, teamId])
}

model Project {
  id          String    @id @default(cuid())
  teamId      String
  name        String
  description String?
  archivedAt  DateTime?
  createdAt   DateTime  @default(now())
  team        Team      @relation(fields: [teamId], references: [id], onDelete: Cascade)
  comments    Comment[]

  @@index([teamId, createdAt])
}

model Comment {
  id        String   @id @default(cuid())
  projectId String
  authorId  String
  body      String
  createdAt DateTime @default(now())
  project   Project  @relation(fields: [projectId], references: [id], onDelete: Cascade)
  author    User     @relation(fields: [authorId], references: [id])
}

enum Role {
  OWNER
  ADMIN
  MEMBER
}'''

PKG_JSON = '''{
  "name": "@tisserand/@A@",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "dev": "next dev --port 3000",
    "build": "next build",
    "start": "next start",
    "lint": "eslint . --max-warnings 0",
    "typecheck": "tsc --noEmit",
    "test": "vitest run",
    "test:watch": "vitest"
  },
  "dependencies": {
    "@tanstack/react-query": "^5.40.0",
    "@tisserand/ui": "workspace:*",
    "class-variance-authority": "^0.7.0",
    "clsx": "^2.1.1",
    "date-fns": "^3.6.0",
    "next": "14.2.4",
    "react": "18.3.1",
    "react-dom": "18.3.1",
    "react-hook-form": "^7.51.5",
    "zod": "^3.23.8"
  },
  "devDependencies": {
    "@tisserand/eslint-config": "workspace:*",
    "@tisserand/tsconfig": "workspace:*",
    "@testing-library/react": "^16.0.0",
    "@types/node": "^20.14.2",
    "@types/react": "^18.3.3",
    "eslint": "^9.4.0",
    "tailwindcss": "^3.4.4",
    "typescript": "^5.4.5",
    "vitest": "^1.6.0"
  }
}'''

TSCONFIG = '''{
  "extends": "@tisserand/tsconfig/nextjs.json",
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@/*": ["./src/*"]
    },
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "exactOptionalPropertyTypes": false,
    "verbatimModuleSyntax": true,
    "plugins": [{ "name": "next" }],
    "types": ["vitest/globals"]
  },
  "include": ["next-env.d.ts", "src/**/*.ts", "src/**/*.tsx", ".next/types/**/*.ts"],
  "exclude": ["node_modules", ".next", "coverage"]
}'''

CI_YML = '''name: ci
on:
  pull_request:
  push:
    branches: [main]

concurrency:
  group: ci-${{ github.ref }}
  cancel-in-progress: true

jobs:
  checks:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16-alpine
        env:
          POSTGRES_PASSWORD: postgres
        ports: ["5432:5432"]
        options: --health-cmd pg_isready --health-interval 5s
    steps:
      - uses: actions/checkout@v4
      - uses: pnpm/action-setup@v4
      - uses: actions/setup-node@v4
        with:
          node-version-file: .nvmrc
          cache: pnpm
      - run: pnpm install --frozen-lockfile
      - run: pnpm -r typecheck
      - run: pnpm -r lint
      - run: pnpm -r test
        env:
          DATABASE_URL: postgresql://postgres:postgres@localhost:5432/ci
  e2e:
    needs: checks
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: pnpm/action-setup@v4
      - run: pnpm install --frozen-lockfile
      - run: pnpm exec playwright install --with-deps chromium
      - run: pnpm e2e
      - uses: actions/upload-artifact@v4
        if: failure()
        with:
          name: playwright-report
          path: playwright-report/'''

STORY = '''import type { Meta, StoryObj } from "@storybook/react";
import { @C@ } from "./@C@";

const meta = {
  title: "Primitives/@C@",
  component: @C@,
  args: { children: "Label", tone: "neutral", size: "md" },
  argTypes: {
    tone: { control: "inline-radio", options: ["neutral", "primary", "danger", "ghost"] },
    size: { control: "inline-radio", options: ["sm", "md", "lg"] },
  },
} satisfies Meta<typeof @C@>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Neutral: Story = {};
export const Primary: Story = { args: { tone: "primary" } };
export const Danger: Story = { args: { tone: "danger", children: "Delete project" } };
export const Loading: Story = { args: { loading: true, children: "Saving" } };
export const Disabled: Story = { args: { disabled: true } };
export const Small: Story = { args: { size: "sm" } };'''

UTIL_BLOCKS = (
    '''export function formatRelative(date: Date, now = new Date()): string {
  const seconds = Math.round((now.getTime() - date.getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return date.toLocaleDateString("en-GB", { day: "numeric", month: "short" });
}''',
    '''export function initials(name: string | null | undefined): string {
  if (!name) return "?";
  const parts = name.trim().split(/\\s+/).slice(0, 2);
  return parts.map((part) => part[0]?.toUpperCase() ?? "").join("") || "?";
}''',
    '''export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}''',
    '''export async function fetchJson<T>(input: RequestInfo, init?: RequestInit): Promise<T> {
  const res = await fetch(input, { ...init, headers: { accept: "application/json", ...init?.headers } });
  if (!res.ok) {
    const body = await res.text().catch(() => "");
    throw new HttpError(res.status, body.slice(0, 500));
  }
  return (await res.json()) as T;
}''',
    '''export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`HTTP ${status}`);
    this.name = "HttpError";
  }
}''',
    '''export const @m@Keys = {
  all: ["@R@"] as const,
  list: (teamId: string, q?: string) => [...@m@Keys.all, "list", teamId, q ?? ""] as const,
  detail: (id: string) => [...@m@Keys.all, "detail", id] as const,
};''',
    '''export function slugify(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/[\\u0300-\\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}''',
    '''export function pickDefined<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}''',
    '''export const PAGE_SIZES = [10, 25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export function parsePageSize(raw: string | null): PageSize {
  const n = Number(raw);
  return (PAGE_SIZES as readonly number[]).includes(n) ? (n as PageSize) : 25;
}''',
)


def _component_text(rng: random.Random) -> str:
    if rng.random() < 0.6:
        head, tail = COMPONENT.split("\n\nconst ", 1)
        return head + "\n\n" + COMPONENT_CONTEXT + "\nconst " + tail
    return COMPONENT


def _util_text(rng: random.Random) -> str:
    blocks = rng.sample(UTIL_BLOCKS, rng.randint(3, 6))
    if any("HttpError(" in b for b in blocks) and not any("class HttpError" in b for b in blocks):
        blocks.insert(0, UTIL_BLOCKS[4])
    return "\n\n".join(blocks)


def _filler_file(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str]:
    """A file of the routine work: its path in the repo and its text."""
    r = rng.random()
    if r < 0.22:
        path, text = ctx["comp_path"], _component_text(rng)
    elif r < 0.32:
        path, text = ctx["comp_test"], UI_TEST
    elif r < 0.37:
        path, text = ctx["comp_story"], STORY
    elif r < 0.47:
        path, text = ctx["hook_path"], HOOK
    elif r < 0.60:
        path, text = ctx["route_path"], ROUTE
    elif r < 0.66:
        path, text = ctx["route_test"], API_TEST
    elif r < 0.75:
        path, text = ctx["page_path"], PAGE
    elif r < 0.80:
        path, text = ctx["spec_path"], E2E
    elif r < 0.84:
        path, text = "packages/db/prisma/schema.prisma", SCHEMA
    elif r < 0.87:
        path, text = f"apps/{ctx['app']}/package.json", PKG_JSON.replace("@A@", ctx["app"])
    elif r < 0.89:
        path, text = "apps/web/tsconfig.json", TSCONFIG
    elif r < 0.91:
        path, text = ".github/workflows/ci.yml", CI_YML
    else:
        path, text = f"{ctx['feat_dir']}/utils.ts", _util_text(rng)
    if path.endswith((".tsx", ".ts")) and ".test." not in path and ".spec." not in path and rng.random() < 0.9:
        text += "\n\n// --- local helpers ---\n\n" + "\n\n".join(rng.sample(UTIL_BLOCKS, rng.randint(4, 7)))
    return path, _fill(text, ctx)


def _read(rng: random.Random, ctx: dict[str, Any]) -> Call:
    path, text = _filler_file(rng, ctx)
    return "Read", _args(file_path=f"{HOME}/{path}"), _numbered(text)


def _edit_result(path: str, text: str, at: int) -> str:
    lines = text.split("\n")
    lo = max(0, at - 8)
    snippet = "\n".join(lines[lo:lo + 40])
    return (f"The file {HOME}/{path} has been updated. Here's the result of running `cat -n` on a snippet of the "
            f"edited file:\n{_numbered(snippet, lo + 1)}")


EDIT_TWEAKS = (("md: \"h-9 px-4\"", "md: \"h-9 px-4 py-2\""), ("delay = 250", "delay = 300"),
               ("max(100)", "max(200)"), ("\"Loading\"", "\"Loading…\""), ("toBeVisible()", "toBeVisible({ timeout: 10_000 })"),
               ("orderBy: { createdAt: \"desc\" }", "orderBy: [{ createdAt: \"desc\" }, { id: \"desc\" }]"),
               ("gap-6", "gap-4 md:gap-6"), ("rounded-md", "rounded-lg"), ("take: query.take + 1", "take: query.take + 1,\n      select: listSelect"))


def _edit(rng: random.Random, ctx: dict[str, Any]) -> Call:
    path, text = _filler_file(rng, ctx)
    lines = text.split("\n")
    for old, new in rng.sample(EDIT_TWEAKS, len(EDIT_TWEAKS)):
        if old in text:
            at = next(i for i, line in enumerate(lines) if old in line)
            old_line = lines[at]
            new_text = text.replace(old_line, old_line.replace(old, new), 1)
            args = _args(file_path=f"{HOME}/{path}", old_string=old_line.strip(),
                         new_string=old_line.replace(old, new).strip())
            return "Edit", args, _edit_result(path, new_text, at)
    at = rng.randrange(max(1, len(lines) - 3))
    old_line = lines[at] or lines[0]
    new_line = old_line + "  // reviewed"
    return ("Edit", _args(file_path=f"{HOME}/{path}", old_string=old_line.strip(), new_string=new_line.strip()),
            _edit_result(path, text.replace(old_line, new_line, 1), at))


def _write(rng: random.Random, ctx: dict[str, Any]) -> Call:
    options = ((ctx["comp_test"], UI_TEST), (ctx["comp_story"], STORY), (ctx["route_test"], API_TEST),
               (f"{ctx['feat_dir']}/{ctx['Feat']}EmptyState.tsx", COMPONENT.replace("@C@", "@F@EmptyState")),
               (ctx["spec_path"], E2E), (f"{ctx['feat_dir']}/format.ts", _util_text(rng)))
    path, text = rng.choice(options)
    return "Write", _args(file_path=f"{HOME}/{path}", content=_fill(text, ctx)), f"File created successfully at: {HOME}/{path}"


GREP_PATTERNS = ("@C@", "@H@", "from \"@tisserand/ui\"", "prisma.@m@", "\"/@R@\"", "aria-", "data-state", "z.object(",
                 "getByRole(", "className=", "export function", "useState(", "await ", "cn(", "forwardRef", "notFound(",
                 "toBeVisible()", "reply.code(", "@m@Keys")


def _grep_sources(rng: random.Random, ctx: dict[str, Any]) -> list[tuple[str, str]]:
    """Files a search runs over: the loop's own and some neighbours, filled with their own names."""
    out = [(ctx["comp_path"], COMPONENT), (ctx["page_path"], PAGE), (ctx["route_path"], ROUTE), (ctx["hook_path"], HOOK),
           (ctx["comp_test"], UI_TEST), (ctx["spec_path"], E2E), (ctx["comp_story"], STORY),
           (f"{ctx['feat_dir']}/utils.ts", "\n\n".join(UTIL_BLOCKS[4:]))]
    out = [(path, _fill(text, ctx)) for path, text in out]
    for _ in range(rng.randint(12, 18)):
        sub = _ctx(rng)
        for key, text in rng.sample((("comp_path", COMPONENT), ("page_path", PAGE), ("route_path", ROUTE),
                                     ("comp_test", UI_TEST), ("spec_path", E2E), ("comp_story", STORY)), 3):
            out.append((sub[key], _fill(text, sub)))
    return out


def _grep(rng: random.Random, ctx: dict[str, Any]) -> Call:
    pattern = _fill(rng.choice(GREP_PATTERNS[:5]) if rng.random() < 0.3 else rng.choice(GREP_PATTERNS[5:]), ctx)
    files, seen = [], set()
    for path, text in _grep_sources(rng, ctx):
        if path not in seen:
            seen.add(path)
            lines = text.split("\n")
            files.append((path, lines, [i for i, line in enumerate(lines) if pattern in line]))
    count = sum(len(at) for _p, _l, at in files)
    args = _args(pattern=pattern, path=HOME, output_mode="content", **{"-n": True})
    if not count:
        return "Grep", args, "No matches found"
    out: list[str] = []
    if count < 15:  # few hits: show them with two lines of context, as a careful search would
        args["-C"] = 2
        for path, lines, at in files:
            shown: set[int] = set()
            for i in at:
                if out and i - 2 not in shown:
                    out.append("--")
                for j in range(max(0, i - 2), min(len(lines), i + 3)):
                    if j not in shown:
                        shown.add(j)
                        out.append(f"{path}{':' if j == i else '-'}{j + 1}{':' if j == i else '-'}{lines[j]}")
    else:
        out = [f"{path}:{i + 1}:{lines[i]}" for path, lines, at in files for i in at]
        if len(out) > 80:
            out = sorted(rng.sample(out, 80), key=out.index)
    touched = sum(1 for _p, _l, at in files if at)
    return "Grep", args, "\n".join(out) + f"\n\nFound {count} matching lines in {touched} files"


def _glob(rng: random.Random, ctx: dict[str, Any]) -> Call:
    kind = rng.random()
    if kind < 0.5:
        pattern = "packages/ui/src/**/*.tsx"
        paths = [f"packages/ui/src/{c}/{c}{s}" for c in rng.sample(UI, rng.randint(14, 30))
                 for s in (".tsx", ".test.tsx", ".stories.tsx") if rng.random() < 0.8]
    elif kind < 0.8:
        pattern = "apps/web/src/**/*.{ts,tsx}"
        paths = [f"apps/web/src/features/{f}/{_pascal(f)}{s}" for f in rng.sample(FEATURES, rng.randint(8, 16))
                 for s in ("List.tsx", "Toolbar.tsx", "EmptyState.tsx", "queries.ts", "types.ts") if rng.random() < 0.7]
    else:
        pattern = "apps/api/src/**/*.ts"
        paths = [f"apps/api/src/routes/{r}{s}" for r in ROUTES for s in (".ts", ".test.ts")]
        paths += ["apps/api/src/app.ts", "apps/api/src/server.ts", "apps/api/src/plugins/auth.ts",
                  "apps/api/src/plugins/cors.ts", "apps/api/src/lib/http-errors.ts", "apps/api/src/lib/logger.ts"]
    return "Glob", _args(pattern=pattern, path=HOME), "\n".join(f"{HOME}/{p}" for p in paths)


# --- what Bash prints ----------------------------------------------------------------------------------------------

VITEST_WHY = (
    ("AssertionError: expected 'idle' to be 'loading' // Object.is equality", "toHaveAttribute(\"data-state\", \"loading\")"),
    ("TestingLibraryElementError: Unable to find an accessible element with the role \"dialog\"", "getByRole(\"dialog\")"),
    ("AssertionError: expected \"spy\" to be called 1 times, but got 0 times", "toHaveBeenCalledTimes(1)"),
    ("Error: Not implemented: window.matchMedia", "render(<Wrapper />)"),
    ("AssertionError: expected [ 'b', 'a' ] to deeply equal [ 'a', 'b' ]", "toEqual([\"a\", \"b\"])"),
)
TEST_TITLES = ("renders its children", "closes on escape", "traps focus while open", "announces changes politely",
               "keeps the selection after rerender", "calls onChange once per commit", "supports keyboard navigation",
               "renders the empty state", "shows a spinner while loading", "forwards its ref")


def _clock(rng: random.Random) -> str:
    return f"{rng.randint(8, 19):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def _vitest(rng: random.Random, fail: tuple[str, str, str] | None = None, also: str | None = None,
            why: str = "") -> str:
    """A vitest run; ``fail`` = (file, describe, title) of the one failing test, ``also`` a file that passes."""
    files = [f"packages/ui/src/{c}/{c}.test.tsx" for c in rng.sample(UI, rng.randint(14, 26))]
    files += [f"apps/api/src/routes/{r}.test.ts" for r in rng.sample(ROUTES, rng.randint(3, 7))]
    if also:
        files.insert(rng.randrange(len(files) + 1), also)
    out = [f" RUN  v1.6.0 {HOME}", ""]
    tests = 0
    for f in files:
        k = rng.randint(3, 19)
        tests += k
        out.append(f" ✓ {f} ({k} tests) {rng.randint(30, 950)}ms")
        if rng.random() < 0.2 and f.endswith(".tsx"):
            comp = f.split("/")[-2]
            out += [f"stderr | {f} > {comp} > {rng.choice(TEST_TITLES)}",
                    f"Warning: An update to {comp} inside a test was not wrapped in act(...).", "",
                    "When testing, code that causes React state updates should be wrapped into act(...):", "",
                    "act(() => {", "  /* fire events that update state */", "});", "/* assert on the output */", ""]
    failed = 0
    if fail:
        file, describe, title = fail
        told, call = rng.choice(VITEST_WHY)
        why = why or told
        k = rng.randint(4, 12)
        tests += k
        failed = 1
        out.insert(rng.randint(3, len(out)), f" ❯ {file} ({k} tests | 1 failed) {rng.randint(90, 900)}ms\n"
                                            f"   × {describe} > {title} {rng.randint(8, 90)}ms")
        line = rng.randint(18, 70)
        out += ["", "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯", "", f"FAIL  {file} > {describe} > {title}", why,
                f" ❯ {file}:{line}:{rng.randint(5, 40)}", f"    {line - 2}|   it(\"{title}\", async () => {{",
                f"    {line - 1}|     const user = userEvent.setup();", f"    {line}|     expect(screen.{call});",
                "      |     ^", f"    {line + 1}|   }});", "", "⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯", ""]
    n_files = len(files) + failed
    head = f"{failed} failed | " if failed else ""
    out += ["", f" Test Files  {head}{len(files)} passed ({n_files})",
            f"      Tests  {head}{tests - failed} passed ({tests})", f"   Start at  {_clock(rng)}",
            f"   Duration  {rng.uniform(4, 40):.2f}s (transform {rng.uniform(0.5, 4):.2f}s, setup {rng.uniform(0.2, 2):.2f}s, "
            f"collect {rng.uniform(2, 9):.2f}s, tests {rng.uniform(2, 20):.2f}s, environment {rng.uniform(1, 6):.2f}s, "
            f"prepare {rng.uniform(0.5, 3):.2f}s)"]
    return "\n".join(out)


def _filler_fail(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    return ctx["comp_test"], ctx["comp"], rng.choice(TEST_TITLES)


TSC_MESSAGES = ("error TS2322: Type 'string | undefined' is not assignable to type 'string'.",
                "error TS2345: Argument of type 'number | null' is not assignable to parameter of type 'number'.",
                "error TS2532: Object is possibly 'undefined'.",
                "error TS7006: Parameter 'row' implicitly has an 'any' type.",
                "error TS2739: Type '{}' is missing the following properties from type 'Props': teamId, query")
PROJECTS = ("packages/tsconfig", "packages/config", "packages/eslint-config", "packages/ui", "packages/db",
            "packages/api-client", "packages/flags", "apps/api", "apps/web", "e2e")


def _tsc(rng: random.Random, errors: list[str]) -> str:
    t = _clock(rng)
    out = [f"[{t}] Projects in this build: "] + [f"    * {p}/tsconfig.json" for p in PROJECTS] + [""]
    for p in PROJECTS:
        if rng.random() < 0.6:
            out += [f"[{t}] Project '{p}/tsconfig.json' is out of date because output '{p}/dist/.tsbuildinfo' is older "
                    f"than input '{p}/src/index.ts'", "", f"[{t}] Building project '{HOME}/{p}/tsconfig.json'...", "",
                    f"[{t}] Updating unchanged output timestamps of project '{HOME}/{p}/tsconfig.json'...", ""]
        else:
            out += [f"[{t}] Project '{p}/tsconfig.json' is up to date because newest input '{p}/src/index.ts' is older "
                    f"than output '{p}/dist/.tsbuildinfo'", ""]
    out += errors
    if errors:
        out += ["", f"Found {len(errors)} error{'s' if len(errors) > 1 else ''}."]
    return "\n".join(out)


def _filler_tsc_errors(rng: random.Random, ctx: dict[str, Any]) -> list[str]:
    if rng.random() < 0.65:
        return []
    paths = (ctx["page_path"], ctx["comp_path"], ctx["route_path"], ctx["hook_path"])
    return [f"{rng.choice(paths)}({rng.randint(5, 80)},{rng.randint(3, 40)}): {rng.choice(TSC_MESSAGES)}"
            for _ in range(rng.randint(1, 3))]


LINT_WARNINGS = ("React Hook useEffect has a missing dependency: 'onChange'. Either include it or remove the dependency "
                 "array. [Warning/react-hooks/exhaustive-deps]", "Unexpected console statement. [Warning/no-console]",
                 "Prefer using an optional chain expression instead, as it's more concise and easier to read. "
                 "[Warning/@typescript-eslint/prefer-optional-chain]",
                 "Unexpected any. Specify a different type. [Warning/@typescript-eslint/no-explicit-any]",
                 "`import()` type annotations are forbidden. [Warning/@typescript-eslint/consistent-type-imports]",
                 "Do not use Array index in keys [Warning/react/no-array-index-key]")


def _eslint(rng: random.Random, ctx: dict[str, Any], errors: list[str]) -> str:
    paths = [ctx["page_path"], ctx["comp_path"], ctx["hook_path"], ctx["route_path"], ctx["spec_path"]]
    paths += [f"packages/ui/src/{c}/{c}.tsx" for c in rng.sample(UI, 4)]
    out = [f"{HOME}/{rng.choice(paths)}:{rng.randint(3, 90)}:{rng.randint(3, 30)}: {rng.choice(LINT_WARNINGS)}"
           for _ in range(rng.randint(12, 30))]
    for e in errors:
        out.insert(rng.randrange(len(out) + 1), e)
    return "\n".join(out) + f"\n\n{len(out)} problems"


PW_TITLES = ("happy path", "keeps the filter after reload", "shows the empty state", "works with the keyboard",
             "survives a slow network", "redirects when signed out")


def _playwright(rng: random.Random, fail: tuple[str, str, str, str, int] | None = None, also: str | None = None) -> str:
    """A Playwright run (list reporter); ``fail`` = (the ✘ line, spec path, describe, title, line number)."""
    rows = []
    for spec in rng.sample(SPECS, rng.randint(6, 11)):
        for title in rng.sample(PW_TITLES, rng.randint(3, 5)):
            rows.append(f"[chromium] › e2e/{spec}.spec.ts:{rng.randint(8, 90)}:{rng.randint(3, 9)} › {spec} › {title}")
    if also:
        rows.insert(rng.randrange(len(rows) + 1), also)
    lines = [f"✓  {i} {row} ({rng.uniform(0.8, 9):.1f}s)" for i, row in enumerate(rows, 1)]
    failed = 0
    tail = []
    if fail:
        bad, path, describe, title, at = fail
        failed = 1
        lines.insert(rng.randrange(len(lines) + 1), bad)
        label = "[chromium]" + bad.split("[chromium]", 1)[1].rsplit(" (", 1)[0]
        tail = ["", f"  1) {label} ───────────────────────────", "", "    Test timeout of 30000ms exceeded.", "",
                "    Error: locator.click: Test timeout of 30000ms exceeded.", "    Call log:",
                f"      - waiting for getByRole('button', {{ name: '{title.capitalize()}' }})", "",
                f"      {at - 1} |     await expect(page.getByRole(\"heading\")).toBeVisible();",
                f"    > {at} |     await page.getByRole(\"button\", {{ name: \"{title.capitalize()}\" }}).click();",
                "         |                                                        ^", "",
                f"        at {HOME}/{path}:{at}:5", "",
                "    attachment #1: trace (application/zip) ───────────────",
                f"    test-results/{describe.replace(' ', '-')}-chromium/trace.zip", "    Usage:", "",
                f"        pnpm exec playwright show-trace test-results/{describe.replace(' ', '-')}-chromium/trace.zip"]
        tail += ["", "  1 failed", f"    {label}"]
    head = [f"Running {len(lines)} tests using 4 workers", ""]
    return "\n".join(head + lines + tail + [f"  {len(lines) - failed} passed ({rng.uniform(0.6, 4):.1f}m)"])


def _git_log(rng: random.Random, ctx: dict[str, Any], n: int = 0) -> str:
    rows = []
    for _ in range(n or rng.randint(25, 45)):
        sub = _ctx(rng)
        rows.append(f"{_hex(rng, 7)} {_fill(rng.choice(COMMITS), sub)} ({rng.choice(PEOPLE)}, {rng.randint(2, 59)} "
                    f"{rng.choice(('minutes', 'hours', 'days'))} ago)")
    return "\n".join(rows)


def _git_status(rng: random.Random, ctx: dict[str, Any]) -> str:
    changed = rng.sample([ctx["comp_path"], ctx["comp_test"], ctx["page_path"], ctx["route_path"], ctx["hook_path"],
                          ctx["comp_story"], "pnpm-lock.yaml", ctx["spec_path"]], rng.randint(2, 6))
    out = [f"On branch camille/{ctx['feat']}-{rng.choice(('fix', 'cleanup', 'polish', 'a11y', 'perf'))}",
           f"Your branch is ahead of 'origin/main' by {rng.randint(1, 4)} commits.", "  (use \"git push\" to publish "
           "your local commits)", "", "Changes not staged for commit:",
           "  (use \"git add <file>...\" to update what will be committed)",
           "  (use \"git restore <file>...\" to discard changes in working directory)"]
    out += [f"\tmodified:   {p}" for p in changed]
    out += ["", "Untracked files:", "  (use \"git add <file>...\" to include in what will be committed)",
            f"\t{ctx['feat_dir']}/{ctx['Feat']}EmptyState.tsx", "",
            "no changes added to commit (use \"git add\" and/or \"git commit -a\")"]
    return "\n".join(out)


def _git_diff(rng: random.Random, ctx: dict[str, Any]) -> str:
    out = []
    for _ in range(rng.randint(2, 4)):
        path, text = _filler_file(rng, ctx)
        lines = text.split("\n")
        out += [f"diff --git a/{path} b/{path}", f"index {_hex(rng, 7)}..{_hex(rng, 7)} 100644", f"--- a/{path}",
                f"+++ b/{path}"]
        for at in sorted(rng.sample(range(3, max(4, len(lines) - 4)), min(2, max(1, len(lines) - 8)))):
            out.append(f"@@ -{at - 2},7 +{at - 2},8 @@ {lines[0][:40]}")
            out += [" " + x for x in lines[at - 3:at]]
            out += ["-" + lines[at], "+" + lines[at].replace("  ", "    ", 1), "+" + "  // " + rng.choice(
                ("keep in sync with the story", "see the design note", "matches the api contract",
                 "safari needs this", "avoid layout shift"))]
            out += [" " + x for x in lines[at + 1:at + 4]]
    return "\n".join(out)


def _pnpm_install(rng: random.Random, ctx: dict[str, Any]) -> str:
    return "\n".join([
        "Scope: all 7 workspace projects", "Lockfile is up to date, resolution step is skipped",
        f"Progress: resolved {rng.randint(1300, 1500)}, reused {rng.randint(1250, 1299)}, downloaded "
        f"{rng.randint(0, 40)}, added {rng.randint(0, 40)}, done", "",
        " WARN  Issues with peer dependencies found", "apps/web",
        "└─┬ @storybook/react 8.1.6", "  └── ✕ unmet peer react-dom@\"^16.8.0 || ^17.0.0 || ^18.0.0\": found 18.3.1",
        "packages/ui", "└─┬ @radix-ui/react-popover 1.0.7", "  └── ✕ unmet peer @types/react@\"*\": found 18.3.3", "",
        "devDependencies:", f"+ {ctx['dep']} {ctx['ver']}", "",
        ". prepare$ husky", ". prepare: Done", f"Done in {rng.uniform(2, 30):.1f}s"])


def _pnpm_outdated(rng: random.Random, ctx: dict[str, Any]) -> str:
    out = ["┌──────────────────────────────┬─────────┬─────────┬──────────────────────┐",
           "│ Package                      │ Current │ Latest  │ Dependents           │",
           "├──────────────────────────────┼─────────┼─────────┼──────────────────────┤"]
    for dep, ver in rng.sample(DEPS, rng.randint(6, 12)):
        major, minor, patch = ver.split(".")
        cur = f"{major}.{max(0, int(minor) - rng.randint(0, 3))}.{patch}"
        out.append(f"│ {dep:<28} │ {cur:<7} │ {ver:<7} │ {rng.choice(('@tisserand/web', '@tisserand/api', '@tisserand/ui')):<20} │")
    out.append("└──────────────────────────────┴─────────┴─────────┴──────────────────────┘")
    return "\n".join(out)


def _migration_stamp(rng: random.Random) -> str:
    return f"2024{rng.randint(1, 9):02d}{rng.randint(10, 28)}{rng.randint(10, 23)}{rng.randint(10, 59)}{rng.randint(10, 59)}"


def _prisma_dev(rng: random.Random, ctx: dict[str, Any], name: str = "") -> str:
    name = name or f"{_migration_stamp(rng)}_{_snake(ctx['model'])}_{_snake(ctx['field'])}_index"
    return "\n".join([
        "Environment variables loaded from .env", "Prisma schema loaded from prisma/schema.prisma",
        "Datasource \"db\": PostgreSQL database \"tisserand_dev\", schema \"public\" at \"localhost:5432\"", "",
        f"Applying migration `{name}`", "",
        "The following migration(s) have been created and applied from new schema changes:", "", "migrations/",
        f"  └─ {name}/", "    └─ migration.sql", "", "Your database is now in sync with your schema.", "",
        f"✔ Generated Prisma Client (v5.15.0) to ./node_modules/@prisma/client in {rng.randint(120, 600)}ms"])


def _prisma_status(rng: random.Random, ctx: dict[str, Any], pending: str = "") -> str:
    names = sorted(f"{_migration_stamp(rng)}_{rng.choice(('init', 'add_invites', 'team_slug_unique', 'comments', 'audit_events', 'api_keys', 'project_archived_at', 'notifications_read_at'))}"
                   for _ in range(rng.randint(8, 16)))
    out = ["Environment variables loaded from .env", "Prisma schema loaded from prisma/schema.prisma",
           "Datasource \"db\": PostgreSQL database \"tisserand_dev\", schema \"public\" at \"localhost:5432\"", "",
           f"{len(names) + (1 if pending else 0)} migrations found in prisma/migrations", ""]
    if pending:
        out += ["Following migration have not yet been applied:", pending, "",
                "To apply migrations in development run prisma migrate dev.",
                "To apply migrations in production run prisma migrate deploy."]
    else:
        out += ["Database schema is up to date!"]
    return "\n".join(out + ["", "Applied:"] + [f"  {n}" for n in names])


def _next_build(rng: random.Random, ctx: dict[str, Any], error: str = "") -> str:
    out = ["  ▲ Next.js 14.2.4", "  - Environments: .env.local", "", "   Creating an optimized production build ...",
           " ✓ Compiled successfully", "   Linting and checking validity of types ..."]
    if error:
        for _ in range(rng.randint(5, 10)):
            feat = rng.choice(FEATURES)
            out += ["", f"./src/app/(app)/{feat}/page.tsx",
                    f"{rng.randint(3, 80)}:{rng.randint(3, 30)}  Warning: " + rng.choice(LINT_WARNINGS).rsplit(" [", 1)[0]]
        out += ["", "info  - Need to disable some ESLint rules? Learn more here: "
                "https://nextjs.org/docs/basic-features/eslint#disabling-rules", ""]
        return "\n".join(out + ["Failed to compile.", "", error, "", "Next.js build worker exited with code: 1 and signal: null",
                                " ELIFECYCLE  Command failed with exit code 1."])
    out += [" ✓ Collecting page data", f" ✓ Generating static pages ({rng.randint(8, 20)}/{rng.randint(20, 24)})",
            " ✓ Collecting build traces", " ✓ Finalizing page optimization", "",
            "Route (app)                              Size     First Load JS", "┌ ○ /                                    "
            f"{rng.uniform(1, 9):.1f} kB         {rng.uniform(85, 120):.1f} kB"]
    for feat in rng.sample(FEATURES, rng.randint(8, 14)):
        out.append(f"├ ƒ /[teamSlug]/{feat:<27}{rng.uniform(1, 40):.1f} kB        {rng.uniform(90, 240):.1f} kB")
    out += ["└ ○ /_not-found                          871 B          88.2 kB",
            f"+ First Load JS shared by all            {rng.uniform(84, 90):.1f} kB",
            f"  ├ chunks/23-{_hex(rng, 16)}.js        31.6 kB", f"  ├ chunks/fd9d1056-{_hex(rng, 16)}.js  53.6 kB",
            "  └ other shared chunks (total)          2.1 kB", "", "○  (Static)   prerendered as static content",
            "ƒ  (Dynamic)  server-rendered on demand"]
    return "\n".join(out)


def _curl(rng: random.Random, ctx: dict[str, Any]) -> str:
    items = [{"id": "cl" + _alnum(rng, 23).lower(), "teamId": "cl" + _alnum(rng, 23).lower(),
              "name": rng.choice(("Quarterly review", "Onboarding v2", "Website refresh", "Q3 roadmap", "Hiring")),
              "createdAt": f"2024-0{rng.randint(1, 6)}-{rng.randint(10, 28)}T{_clock(rng)}.000Z",
              ctx["field"]: rng.choice((None, "member", "2024-06-30T00:00:00.000Z", "tis_live_3f"))}
             for _ in range(rng.randint(5, 11))]
    return json.dumps({"items": items, "nextCursor": items[-1]["id"]}, indent=2)


def _docker_logs(rng: random.Random, ctx: dict[str, Any]) -> str:
    rows = []
    for _ in range(rng.randint(8, 18)):
        rid = f"req-{rng.randint(1, 400):x}"
        url = f"/{rng.choice(ROUTES)}?teamId=cl{_alnum(rng, 10).lower()}"
        rows.append(json.dumps({"level": 30, "time": 1718000000000 + rng.randint(0, 9999999), "pid": 41,
                                "hostname": "api", "reqId": rid, "req": {"method": rng.choice(("GET", "GET", "POST")),
                                                                         "url": url}, "msg": "incoming request"}))
        rows.append(json.dumps({"level": 30, "time": 1718000000000 + rng.randint(0, 9999999), "pid": 41,
                                "hostname": "api", "reqId": rid, "res": {"statusCode": rng.choice((200, 200, 201, 404))},
                                "responseTime": round(rng.uniform(2, 180), 3), "msg": "request completed"}))
    return "\n".join(f"api-1  | {r}" for r in rows)


def _routine_bash(rng: random.Random, ctx: dict[str, Any]) -> Call:
    """One routine Bash call of the filler and what it printed."""
    r = rng.random()
    if r < 0.26:
        fail = _filler_fail(rng, ctx) if rng.random() < 0.25 else None
        cmd, out = f"pnpm --filter @tisserand/ui test -- --run {ctx['comp']}", _vitest(rng, fail)
    elif r < 0.38:
        cmd, out = "pnpm exec tsc -b --verbose --pretty false", _tsc(rng, _filler_tsc_errors(rng, ctx))
    elif r < 0.46:
        cmd, out = "pnpm exec eslint . --format unix", _eslint(rng, ctx, [])
    elif r < 0.56:
        cmd, out = f"pnpm exec playwright test {ctx['spec_path']}", _playwright(rng)
    elif r < 0.61:
        cmd, out = "git status", _git_status(rng, ctx)
    elif r < 0.67:
        cmd, out = "git log --oneline -n 30 --format='%h %s (%an, %ar)'", _git_log(rng, ctx)
    elif r < 0.75:
        cmd, out = "git diff", _git_diff(rng, ctx)
    elif r < 0.78:
        cmd, out = f"pnpm add -D {ctx['dep']}@{ctx['ver']} -w", _pnpm_install(rng, ctx)
    elif r < 0.80:
        cmd, out = "pnpm outdated -r", _pnpm_outdated(rng, ctx)
    elif r < 0.83:
        cmd, out = "pnpm --filter @tisserand/db exec prisma migrate status", _prisma_status(rng, ctx)
    elif r < 0.85:
        cmd, out = "pnpm --filter @tisserand/db exec prisma migrate dev --name index", _prisma_dev(rng, ctx)
    elif r < 0.90:
        cmd, out = "pnpm --filter @tisserand/web build", _next_build(rng, ctx)
    elif r < 0.95:
        cmd, out = f"curl -s 'localhost:3001/{ctx['route']}?teamId=clx1' | jq", _curl(rng, ctx)
    else:
        cmd, out = "docker compose logs api --tail 60", _docker_logs(rng, ctx)
    return "Bash", _args(command=cmd, description=rng.choice(("Run it", "Check", "Verify", "See what it says"))), out


# --- what the web tools and the sub-agent return -------------------------------------------------------------------

DOCS = (
    ("https://nextjs.org/docs/app/building-your-application/caching", "Caching in Next.js", (
        "Next.js improves your application's performance and reduces costs by caching rendering work and data "
        "requests. By default it caches as much as possible, and you can opt out per route segment or per request.",
        "The Data Cache persists the result of fetch requests across incoming server requests and deployments. "
        "Revalidation can be time-based, with the next.revalidate option, or on demand with revalidatePath and "
        "revalidateTag inside a Server Action or Route Handler.",
        "The Full Route Cache stores the rendered React Server Component payload and HTML of static routes at build "
        "time. Using a dynamic function such as cookies() or headers(), or setting dynamic = 'force-dynamic', opts "
        "the route out of it.",
        "The Router Cache is a client-side cache that holds the RSC payload of visited route segments for the "
        "duration of a user session. It is invalidated by router.refresh() and by revalidation in Server Actions.",
        "Request memoization deduplicates fetch calls with the same URL and options within a single render pass, so "
        "a layout and a page can both ask for the same data without a second network round trip.")),
    ("https://www.prisma.io/docs/orm/prisma-migrate/workflows/development-and-production",
     "Development and production workflows", (
        "In development, migrate dev compares the Prisma schema with the migration history, creates a new "
        "migration if something changed, applies pending migrations to the development database and triggers "
        "generators such as Prisma Client.",
        "migrate dev relies on a shadow database to detect schema drift and problems in the migration history. "
        "The shadow database is created and dropped automatically unless you configure shadowDatabaseUrl.",
        "In production and testing environments, use migrate deploy. It applies all pending migrations and never "
        "resets the database or uses a shadow database, which makes it safe to run from a CI pipeline.",
        "If a migration fails in production, mark it as rolled back with migrate resolve after fixing the database "
        "manually, then deploy a corrected migration. Editing an applied migration file is not supported.",
        "Customizing a migration is possible by editing the generated SQL before it is applied, for example to "
        "rename a column instead of dropping and re-creating it, which would lose its data.")),
    ("https://fastify.dev/docs/latest/Reference/Hooks/", "Hooks | Fastify", (
        "Hooks are registered with the fastify.addHook method and allow you to listen to specific events in the "
        "application or request/response lifecycle. Hooks are encapsulated: they only apply to the plugin context "
        "they are registered in and its children.",
        "onRequest is the first hook executed in the request lifecycle. The request body is not yet parsed, so "
        "request.body is always undefined there; use preValidation or preHandler if you need it.",
        "preHandler runs after validation and before the route handler. It is the usual place for authorization "
        "checks that need the parsed body or params. Throwing an error or replying early stops the chain.",
        "onSend lets you change the payload before it is sent. The payload is a string, a Buffer, a stream or null "
        "and must be returned in one of those forms; objects are already serialized at that point.",
        "onResponse runs after the response has been sent, so you cannot send more data to the client. It is useful "
        "for metrics, for example to record the response time in a histogram.")),
    ("https://vitest.dev/config/", "Configuring Vitest", (
        "Vitest reads vite.config.ts by default; a vitest.config.ts takes priority when both exist. Use "
        "defineConfig from vitest/config to get typed options, and mergeConfig to extend the app's Vite config.",
        "The environment option selects the test environment: node by default, or jsdom and happy-dom for browser-"
        "like APIs. It can be set per file with a @vitest-environment docblock comment at the top of the file.",
        "The pool option decides how test files are isolated: worker threads, child processes or VM contexts. "
        "Child processes are slower to start but cope better with native modules and libraries that rely on "
        "process-level state.",
        "setupFiles run before each test file in the same process. They are the place for jest-dom matchers, for "
        "polyfills such as matchMedia and ResizeObserver, and for resetting mocks between tests.",
        "Workspaces let one Vitest process run several projects with different configurations, for example the UI "
        "package with jsdom and the API with the node environment, and report them together.")),
    ("https://playwright.dev/docs/locators", "Locators | Playwright", (
        "Locators are the central piece of Playwright's auto-waiting and retry-ability. A locator represents a way "
        "to find elements on the page at any moment; it is resolved right before an action is performed.",
        "page.getByRole() reflects how users and assistive technology perceive the page. Prefer it, together with "
        "getByLabel() and getByText(), over CSS or XPath selectors that are tied to the DOM structure.",
        "Locators are strict: an action on a locator that matches more than one element throws. Narrow the match "
        "with filter({ hasText }), with a parent locator, or with the exact option of the text-based locators.",
        "Web-first assertions such as toBeVisible() and toHaveText() retry until the condition is met or the "
        "timeout expires, so explicit waits and fixed sleeps are rarely needed and usually hide a race.",
        "Use the trace viewer to debug failures in CI: it records a snapshot of the DOM before and after each "
        "action, the network log and the console, and can be opened from the HTML report.")),
    ("https://tanstack.com/query/latest/docs/framework/react/guides/query-invalidation", "Query Invalidation", (
        "Waiting for queries to become stale before they are fetched again doesn't always work, especially when "
        "you know for a fact that a query's data is out of date because of something the user has done.",
        "invalidateQueries marks matching queries as stale and refetches the ones that are currently rendered. "
        "Matching is by query key prefix, so invalidating ['todos'] also invalidates ['todos', { page: 2 }].",
        "Pass exact: true to only match a query with exactly the given key, or a predicate function for anything "
        "more complex, such as invalidating every list of a given team but not the detail views.",
        "After a mutation, prefer invalidating in onSettled so the cache is refreshed whether the mutation "
        "succeeded or failed, or update the cache directly with setQueryData when the response holds the new data.",
        "Query key factories keep keys consistent between the place that reads data and the place that "
        "invalidates it, and make typos in keys a type error instead of a silent cache miss.")),
    ("https://pnpm.io/workspaces", "Workspace | pnpm", (
        "pnpm has built-in support for monorepositories. A workspace must have a pnpm-workspace.yaml file in its "
        "root, listing the directories that hold packages.",
        "The workspace: protocol makes pnpm refuse to resolve to anything other than a local workspace package. "
        "On publish, workspace: dependencies are replaced with the actual version of the local package.",
        "Running a script with the recursive flag runs it in every package, in topological order by default, so a "
        "library builds before the applications that depend on it.",
        "Filtering restricts a command to a subset of packages by name, by directory, or by what changed since a "
        "git ref, and can include the dependencies or dependents of the selected packages.",
        "Shared lockfile: by default pnpm creates a single pnpm-lock.yaml at the root of the workspace, which "
        "makes installs deterministic across packages and speeds up CI caching.")),
)
DOC_CHROME = ("Skip to content\nDocs  API  Blog  GitHub\nSearch documentation... ⌘K\n", "\n\nWas this page helpful?  "
              "Yes  No\nEdit this page on GitHub\n\nPrevious\nNext\n\nOn this page\nOverview\nConfiguration\nExamples\n"
              "Troubleshooting\nRelated")


def _webfetch(rng: random.Random, ctx: dict[str, Any], extra: str = "", page: int = -1) -> Call:
    url, title, paras = DOCS[page if page >= 0 else rng.randrange(len(DOCS))]
    other = DOCS[rng.randrange(len(DOCS))]
    body = list(paras) + ["## Example\n\n```ts\n" + _fill(rng.choice(UTIL_BLOCKS), ctx) + "\n```"]
    body += [f"## Related: {other[1]}"] + rng.sample(other[2], 4)
    parts = [DOC_CHROME[0], f"# {title}", ""] + [p + "\n" for p in body]
    if extra:
        parts.insert(rng.randint(4, len(parts)), extra + "\n")
    parts.append(DOC_CHROME[1])
    prompt = rng.choice(("What does this say about the default behaviour?", "Summarize the relevant options.",
                         "Find the part about invalidation and isolation.", "Extract what applies to our setup."))
    return "WebFetch", _args(url=url, prompt=prompt), "\n".join(parts)


def _websearch(rng: random.Random, ctx: dict[str, Any]) -> Call:
    query = _fill(rng.choice(("@D@ breaking changes", "@C@ focus trap safari", "vitest act warning react 18",
                              "playwright flaky click detached element", "prisma index composite cursor pagination",
                              "next 14 hydration mismatch dates", "fastify preHandler async error handling")), ctx)
    out = [f"Web search results for query: \"{query}\"", ""]
    for url, title, paras in rng.sample(DOCS, 4):
        out += [f"[{title}]({url})", rng.choice(paras), ""]
    for _ in range(rng.randint(3, 5)):
        out += [f"[{query} · Issue #{rng.randint(1000, 30000)}](https://github.com/{rng.choice(('vercel/next.js', 'vitest-dev/vitest', 'microsoft/playwright', 'prisma/prisma'))}/issues/{rng.randint(1000, 30000)})",
                rng.choice(("Closing as this was fixed in the latest release; please upgrade and reopen if it persists.",
                            "Same here after upgrading. Pinning the previous minor works around it for now.",
                            "This is expected: the behaviour changed on purpose, see the migration guide.")), ""]
    return "WebSearch", _args(query=query), "\n".join(out)


def _task(rng: random.Random, ctx: dict[str, Any]) -> Call:
    goal = _fill(rng.choice(("Find every consumer of @C@ and how they pass props",
                             "Map how @H@ is used across apps/web and packages/ui",
                             "Find all callers of GET /@R@ in apps/web", "List the e2e specs that touch /@f@")), ctx)
    rows = []
    for _ in range(rng.randint(14, 26)):
        path, text = _filler_file(rng, ctx)
        lines = text.split("\n")
        at = rng.randrange(len(lines))
        rows.append(f"- `{path}:{at + 1}` — `{lines[at].strip()[:90]}`")
    report = [f"I searched the workspace for this ({rng.randint(40, 300)} files scanned). Findings:", "",
              "## Usages"] + rows + ["", "## Notes",
                                     _fill("- Nothing in apps/api imports from packages/ui, as expected.", ctx),
                                     _fill("- The @C@ stories cover the default and loading states only.", ctx),
                                     _fill("- Two call sites pass a `className` that overrides the focus ring.", ctx),
                                     "", "No files were modified."]
    return ("Task", _args(description=goal[:40], prompt=goal + ". Report file paths and line numbers; change nothing.",
                          subagent_type="general-purpose"), "\n".join(report))


TODOS = ("Reproduce it locally", "Read @C@ and its tests", "Find the callers of @H@", "Check the GET /@R@ handler",
         "Fix the root cause", "Add a regression test", "Update the @C@ story", "Run typecheck and unit tests",
         "Run the @S@ e2e spec", "Summarize for Camille", "Check the design note", "Clean up the diff")
TODO_DONE = ("Todos have been modified successfully. Ensure that you continue to use the todo list to track your "
             "progress. Please proceed with the current tasks if applicable")


def _todowrite(rng: random.Random, ctx: dict[str, Any]) -> Call:
    items = rng.sample(TODOS, rng.randint(3, 6))
    done = rng.randrange(len(items))
    todos = [{"content": _fill(t, ctx), "status": "completed" if i < done else "in_progress" if i == done else "pending"}
             for i, t in enumerate(items)]
    return "TodoWrite", _args(todos=todos), TODO_DONE


# --- routine loops -------------------------------------------------------------------------------------------------

ROUTINE: dict[str, Callable[[random.Random, dict[str, Any]], Call]] = {
    "Read": _read, "Edit": _edit, "Write": _write, "Bash": _routine_bash, "Grep": _grep, "Glob": _glob,
    "TodoWrite": _todowrite, "WebFetch": _webfetch, "WebSearch": _websearch, "Task": _task}
SINGLE = tuple(ROUTINE)
SINGLE_WEIGHTS = (24, 16, 4, 24, 13, 6, 4, 5, 3, 3)
PARALLEL = ("Read", "Read", "Read", "Grep", "Glob", "Bash")
THOUGHTS: dict[str, tuple[str, ...]] = {
    "Read": ("Let me look at how `{comp}` is wired first.", "The handler lives in `{route_path}`; reading it.",
             "Reading the page and the component side by side.", "That's the only caller. Now the component itself.",
             "The story and the test disagree about the default size; checking which one is right.",
             "Quick look at the e2e spec for `{feat}`.", "Checking the tests around `{hook}`."),
    "Bash": ("Running the typecheck to see where this stands.", "Re-running the unit tests.",
             "Let me check git to see what changed recently here.", "Running it once more to be sure."),
    "Grep": ("Searching for other places that do the same.", "Double-checking nothing else imports it.",
             "Looking for every use of it before changing the signature."),
    "Glob": ("Listing the files in that area first.",), "Edit": ("Now the edit.", "Applying the fix.",
                                                                  "Small change in `{comp}` first."),
    "Write": ("Adding the missing test file.",), "TodoWrite": ("Updating the task list.",),
    "WebFetch": ("I'll verify against the docs before changing the config.",),
    "WebSearch": ("Let me see whether this is a known upstream issue.",),
    "Task": ("This is a broad search; handing it to a sub-agent.",)}


def _routine_steps(rng: random.Random, ctx: dict[str, Any], msgs: int, need: int,
                   must: list[str] | None = None, most: int = 40) -> list[Step]:
    """Routine steps filling exactly ``msgs`` messages with at least ``need`` and at most ``most`` calls when that
    fits."""
    steps: list[Step] = []
    rem = msgs
    must = list(must or [])
    while rem > 0:
        options = []
        for w in (1, 2, 3, 4):
            left = rem - 1 - w
            if left < 0 or left == 1:
                continue
            if max(0, need - w) > (4 * left) // 5 or most - w < (left + 1) // 2:
                continue
            options.append(w)
        if not options:
            options = [next(w for w in (4, 3, 2, 1) if rem - 1 - w >= 0 and rem - 1 - w != 1)]
        w = rng.choices(options, weights=[(48, 28, 16, 8)[o - 1] for o in options])[0]
        names: list[str]
        if must:
            names = [must.pop()] + [rng.choice(PARALLEL) for _ in range(w - 1)]
        elif w == 1:
            if not steps and msgs >= 16 and rng.random() < 0.35:
                names = ["TodoWrite"]
            else:
                names = rng.choices(SINGLE, weights=SINGLE_WEIGHTS)
        else:
            names = [rng.choice(PARALLEL) for _ in range(w)]
        text = rng.choice(THOUGHTS[names[0]]).format(**ctx) if rng.random() < 0.45 else ""
        steps.append((text, [ROUTINE[name](rng, ctx) for name in names]))
        rem -= 1 + w
        need -= w
        most -= w
    return steps


# --- her one-off requests, and what the agent answers (none of them planted) ---------------------------------------

REQUESTS = (
    ("bump {dep} to {ver} and fix whatever breaks", "Bumped {dep} to {ver} at the root and in the {n} workspaces "
     "that pin it. Two call sites needed the new signature; typecheck and unit tests pass."),
    ("why is the {spec} e2e flaky on ci? passes locally", "The {spec} spec clicked before the dialog finished "
     "mounting. I switched that step to wait on the role instead of a fixed timeout; 20 local repeats are green."),
    ("add a loading skeleton to the {feat} page", "Added a `loading.tsx` next to `{page_path}` built from "
     "`Skeleton`, with the same layout as the loaded page so nothing jumps."),
    ("rename `{hook}` to `{hook2}` everywhere", "Renamed `{hook}` to `{hook2}` in {n} files, including the "
     "re-export in packages/ui and the stories. Typecheck is clean."),
    ("storybook wont start, something about a preset", "Storybook was still loading an old styling addon preset; "
     "I removed it and rely on the built-in PostCSS handling. `pnpm storybook` boots on :6006."),
    ("the {comp} has a focus ring bug in safari, can u fix", "Safari ignored `focus-visible` on the wrapper; the "
     "ring now sits on the inner element in `{comp_path}`, with a test for keyboard focus."),
    ("pnpm test takes like 3 min now, whats eating the time", "Most of it was jsdom start-up in the api tests, "
     "which don't need a DOM. I moved them to the node environment; the full run is down to about a minute."),
    ("clean up the unused exports in packages/ui", "Removed {n} unused exports from packages/ui (checked with a "
     "workspace-wide search and the typecheck). Nothing in apps/web depended on them."),
    ("typecheck the whole repo and tell me whats red", "Ran `tsc -b` over the workspace: the red bits were in "
     "`{page_path}` and `{route_path}`, both small nullability slips. Fixed; it's clean now."),
    ("add a `{prop}` prop to {comp}", "`{comp}` now takes `{prop}`; it's typed, documented in the story, and "
     "covered by a unit test. Default behaviour is unchanged."),
    ("write tests for {hook}", "Added tests for `{hook}` with fake timers: initial value, settling after the "
     "delay, reset, and the disabled case. All pass."),
    ("GET /{route} returns 500 when the list is empty", "The handler read `rows[take - 1].id` without a guard. "
     "It now returns `nextCursor: null` for short pages; added a test for the empty case."),
    ("what changed on main since friday?", "Since Friday: {n} commits on main, mostly packages/ui polish, a "
     "pagination change on GET /{route}, and a dependency bump. Nothing touches the db schema."),
    ("axe complains about {comp}, make it accessible", "`{comp}` was missing an accessible name and used "
     "`aria-disabled` without blocking clicks. Both fixed; axe is clean on its stories."),
    ("dark mode is broken for {comp}", "`{comp}` hard-coded a light background for the neutral tone; it now "
     "uses the dark variants. Checked the stories in both themes."),
    ("add an index on {model}.{field}, the list query is slow", "Added a composite index on `{model}` "
     "(`{field}`, `createdAt`) with a migration; the list query plan now uses it."),
    ("kill the stray console.logs in apps/{app}", "Removed {n} leftover console calls in apps/{app} and turned "
     "on `no-console` as a warning so new ones show up in lint."),
    ("the api takes forever to boot locally, why", "Boot time went into a synchronous schema check that runs on "
     "every start. It now runs only in CI; local boot is back to about two seconds."),
    ("add pagination to GET /{route}", "GET /{route} now takes `cursor` and `take` (max 100) and returns "
     "`nextCursor`. Updated the web client and added tests."),
    ("eslint is yelling about import order in {feat}, fix pls", "Ran the autofix on `{feat_dir}`; the remaining "
     "warnings were type-only imports, now marked as such. Lint is clean there."),
    ("the {feat} page flashes unstyled content on first load", "The page imported a client component that "
     "loaded its CSS late. Moved the import up to the layout; no flash on a cold load now."),
    ("seed script fails on a fresh db", "The seed inserted memberships before teams. Reordered it and wrapped it "
     "in a transaction; a fresh `prisma migrate reset` seeds cleanly."),
    ("move {hook} from apps/web into packages/ui", "Moved `{hook}` to `{hook_path}`, exported it from the "
     "package index, and updated the {n} imports in apps/web."),
    ("docker compose up fails, something on 5432 i think", "A local postgres was already bound to 5432. I "
     "mapped the compose service to 5433 in `.env.example` and the docker-compose file."),
    ("the {comp} tooltip clips inside the sidebar", "The sidebar had `overflow: hidden`; the tooltip now "
     "renders in a portal, so it isn't clipped. Checked in the story and on /{feat}."),
    ("playwright trace for {spec} on ci, what happened", "The trace shows the {spec} spec hitting the page "
     "before the seed finished. The fixture now awaits the seed response; it passed 3 CI reruns."),
    ("hydration warning on /{feat}, something with dates", "Dates were formatted with the server's locale and "
     "then the browser's. They're formatted once on the server now; the warning is gone."),
    ("the {comp} snapshot keeps changing, make it stable", "The snapshot held a generated id. I replaced the "
     "snapshot with explicit assertions on role and text; the test is stable."),
    ("can you split {feat}/page.tsx, it's huge", "Split the page into `{Feat}List`, `{Feat}Toolbar` and a small "
     "server page. No behaviour change; typecheck and the {spec} spec pass."),
    ("why is the bundle for /{feat} so big", "Most of it was a date library imported whole in a client "
     "component. Switched to per-function imports; /{feat} lost about 60 kB of first-load JS."),
    ("tu peux regarder pourquoi le build next casse sur {feat} ?", "Le build cassait sur un import serveur dans "
     "un composant client de `{feat_dir}`. Je l'ai déplacé dans la page ; `next build` passe."),
    ("salut, le test {comp} est rouge depuis ce matin, tu regardes ?", "Le test de `{comp}` dépendait de l'ordre "
     "des rendus. Je l'ai rendu déterministe ; toute la suite packages/ui passe."),
    ("petit truc : le {comp} déborde sur mobile", "Le `{comp}` avait une largeur minimale fixe ; il s'adapte "
     "maintenant en dessous de 640px. Vérifié dans la story mobile."),
    ("review my branch before i open the PR", "Looked at the diff: logic is fine. Two nits: an unused import in "
     "`{comp_path}` and a missing test for the empty case. Fixed both."),
    ("the {feat} empty state copy is wrong, should say nothing here yet", "Updated the empty state copy on "
     "/{feat} to 'Nothing here yet' and the matching e2e assertion."),
    ("make lint run on staged files only", "Added lint-staged with eslint and prettier on staged files, wired to "
     "the pre-commit hook. The full lint still runs in CI."),
    ("api logs are way too noisy in dev, tone it down", "Dev logging now skips health checks and uses the "
     "pretty transport at `info`; request bodies are no longer logged."),
    ("find where we compute avatar initials, it breaks on emoji names", "Initials are computed in a shared util; "
     "it split on code units. It now uses grapheme-aware splitting, with tests for emoji names."),
    ("how bad would strict null checks in packages/ui be", "Turning on the stricter index checks in packages/ui "
     "gives {n}0-ish errors, mostly array access in `DataTable`. Doable in one PR; I haven't changed anything."),
    ("upgrade the setup-node action in ci", "Bumped `actions/setup-node` to v4 in the workflow and kept the pnpm "
     "cache. The workflow run on the branch is green."),
    ("the {comp} stories should cover all the variants", "Added stories for every tone and size of `{comp}`, plus "
     "loading and disabled."),
    ("can we make GET /{route} return 404 not 500 for missing ids", "GET /{route}/:id now answers 404 for a "
     "missing or foreign id. Added a test for both."),
)
CHAT_OPENERS = ("", "", "", "", "hey ", "morning! ", "ok ", "quick one: ", "salut, ", "back. ", "coffee done. ",
                "ugh, ", "hmm ", "when u get a sec: ", "merci pour tout à l'heure. ", "re: ", "so ", "ok next: ")
CHAT_CLOSERS = ("", "", "", "", " thx", " ty", " merci", " no rush", " 🙏", " pls", " (lunch in 20)", " à+")


# --- what she pastes: others' words and machines' output (listed in Session.pasted) ---------------------------------

CUSTOMERS = (("Sophie Garnier", "s.garnier@atelier-brun.fr", "Atelier Brun"),
             ("Marc Delorme", "marc@delorme-archi.com", "Delorme Architectes"),
             ("Anna Kowalczyk", "anna.k@northwind.io", "Northwind"), ("Yanis Bellamy", "yanis@clairvoie.fr", "Clairvoie"))


def _paste_sentry(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    sid = "TISSERAND-WEB-" + "".join(rng.choices(B36, k=3))
    text = "\n".join([
        "TypeError: Cannot read properties of null (reading 'avatarUrl')", sid,
        f"apps/web · production · web@1.{rng.randint(20, 60)}.{rng.randint(0, 9)}", "",
        f"First seen: {rng.randint(2, 9)} days ago    Last seen: {rng.randint(1, 50)} minutes ago",
        f"Events: {rng.randint(200, 3000):,}    Users: {rng.randint(20, 400)}", "", "STACK TRACE",
        "TypeError: Cannot read properties of null (reading 'avatarUrl')",
        f"  at {ctx['Feat']}List (./src/features/{ctx['feat']}/{ctx['Feat']}List.tsx:{rng.randint(20, 90)}:23)",
        "  at renderWithHooks (node_modules/react-dom/cjs/react-dom.development.js:15486:18)",
        "  at mountIndeterminateComponent (node_modules/react-dom/cjs/react-dom.development.js:20103:13)",
        "  at beginWork (node_modules/react-dom/cjs/react-dom.development.js:21626:16)", "", "BREADCRUMBS",
        f"  navigation  /{ctx['feat']} -> /{ctx['feat']}?page=2", f"  fetch       GET /api/{ctx['route']} [200]",
        f"  ui.click    button[aria-label=\"Open {ctx['comp']}\"]", "", "TAGS",
        f"  browser: Safari 17.4   os: iOS 17.4   url: https://app.tisserand.fr/{ctx['feat']}"])
    intro = rng.choice(("this is blowing up in sentry", "can u look at this one", "sentry ping from this morning:",
                        "encore sentry 😩"))
    final = (f"That Sentry issue comes from `{ctx['Feat']}List` reading `avatarUrl` on a member whose user was "
             f"deleted. It now falls back to initials, with a test for the deleted-user case.")
    return intro, text, final


def _paste_review(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    who = ctx["person"]
    text = "\n".join([
        f"{who.lower()} requested changes · #{rng.randint(100, 899)} fix({ctx['feat']}): tidy the toolbar", "",
        ctx["comp_path"], f"  > L{rng.randint(10, 60)}: const [open, setOpen] = useState(false)",
        "  Please rename this to `isOpen`, we prefix booleans with is/has.", "", ctx["page_path"],
        f"  > L{rng.randint(10, 40)}: <{ctx['comp']} tone=\"ghost\" size=\"sm\">",
        "  Can you extract this into its own component? Also please add a test for the keyboard path.", "",
        ctx["route_path"], "  > L22: take: z.coerce.number().int().min(1).max(100).default(25),",
        "  Don't bump the max here without talking to ops first.", "", "nit: trailing whitespace in the story.", "",
        "Overall fine, fix those and I'll approve."])
    intro = rng.choice((f"{who.lower()}'s review on my pr, handle what makes sense", f"{who.lower()} left comments:",
                        "review comments below, go through them", f"commentaires de {who} sur ma PR :"))
    final = (f"Went through {who}'s review: renamed the boolean to `isOpen`, extracted the toolbar badge into "
             f"its own component and added the keyboard test. Left the max page size alone as asked.")
    return intro, text, final


def _paste_ci(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    comp, title = ctx["comp"], rng.choice(TEST_TITLES)
    rows = [f"packages/ui test:  ✓ src/{c}/{c}.test.tsx ({rng.randint(3, 15)} tests) {rng.randint(40, 700)}ms"
            for c in rng.sample(UI, rng.randint(5, 10))]
    text = "\n".join([
        "Run pnpm -r test", "Scope: 6 of 7 workspace projects", "packages/ui test$ vitest run",
        "packages/ui test:  RUN  v1.6.0 /home/runner/work/app/app/packages/ui"] + rows + [
        f"packages/ui test:  FAIL  src/{comp}/{comp}.test.tsx > {comp} > {title}",
        f"packages/ui test: {rng.choice(VITEST_WHY)[0]}",
        f"packages/ui test:  Test Files  1 failed | {len(rows)} passed ({len(rows) + 1})", "packages/ui test: Failed",
        "/home/runner/work/app/app/packages/ui:",
        " ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL  @tisserand/ui@0.1.0 test: `vitest run`", "Exit status 1",
        "Error: Process completed with exit code 1."])
    intro = rng.choice(("ci is red on my branch:", "main is failing, log below", "wtf ci", "la ci est rouge :"))
    final = (f"CI failed on `{comp}` — {title}: the test relied on a timer that jsdom in CI runs slower. It now "
             f"uses fake timers; the packages/ui suite passes locally and on the rerun.")
    return intro, text, final


def _paste_figma(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    text = "\n".join([
        f"Design spec — {ctx['Feat']} / {ctx['comp']} (v{rng.randint(2, 6)})", "From: Manon (design)", "", "Layout",
        "- 24px between groups, 12px inside a group", "- Title: text-lg semibold, neutral-900",
        "- Actions right-aligned, primary last", "", "States", "- Hover: neutral-100 background",
        "- Focus: 2px indigo-500 ring, 2px offset", "- Empty: new illustration, copy \"Nothing here yet\"", "",
        "Please make sure the mobile layout stacks the actions under the title below 640px.",
        "Don't use the old grey anywhere on this screen, use neutral-500.", "Ping me before shipping!"])
    intro = rng.choice((f"manon's notes for the {ctx['feat']} screen, apply them to {ctx['comp']}",
                        "design feedback from manon:", "notes de manon pour l'écran, tu peux appliquer ?"))
    final = (f"Applied Manon's spec to `{ctx['comp']}` on /{ctx['feat']}: spacing, hover and focus states, the "
             f"empty-state copy, and the stacked actions under 640px. Screenshots are in the story.")
    return intro, text, final


def _paste_email(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    name, email, company = rng.choice(CUSTOMERS)
    action = rng.choice((f"open the {ctx['feat']} page", "upload a file bigger than 5 MB", "invite a colleague"))
    text = "\n".join([
        f"From: {name} <{email}>", "To: support@tisserand.fr", f"Subject: Can't {action} since yesterday", "",
        "Hello,", "", f"Since yesterday afternoon I can't {action}. The page shows a spinner and then an error "
        "message in red. I tried another browser and the same thing happens.", "",
        "Please fix this quickly, we have a client presentation on Thursday. And please call me back rather than "
        "email, I don't read my inbox during site visits.", "", "Best regards,", name, company])
    intro = rng.choice(("customer email from support, can you reproduce", "fwd from support:",
                        "un client qui râle, tu peux regarder ?"))
    final = (f"Reproduced {name.split()[0]}'s issue: the request to GET /{ctx['route']} timed out for teams with "
             f"many rows. Added the missing index and a shorter page size; it loads in under a second now.")
    return intro, text, final


def _paste_config(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str, str]:
    if rng.random() < 0.5:
        text = _fill(PKG_JSON.replace("@A@", "worker"), ctx).replace("\"@tisserand/ui\": \"workspace:*\"",
                                                                      "\"@tisserand/ui\": \"^0.1.0\"")
        intro = f"{ctx['person'].lower()}'s package.json for the new worker, why doesnt it pick up our local ui?"
        final = ("The worker pinned `@tisserand/ui` to a registry range instead of `workspace:*`, so pnpm looked "
                 "for a published package. Switched it to the workspace protocol; install links the local package.")
    else:
        text = TSCONFIG.replace("\"@/*\": [\"./src/*\"]", "\"@/*\": [\"src/*\"]").replace("\"baseUrl\": \".\",\n    ", "")
        intro = "this tsconfig from a branch breaks the @/ imports:"
        final = ("That tsconfig dropped `baseUrl`, so the `@/*` paths resolved against nothing. Restored it; "
                 "typecheck and the next build both resolve `@/` imports again.")
    return intro, text, final


PASTES = (_paste_sentry, _paste_review, _paste_ci, _paste_figma, _paste_email, _paste_config)


# --- the conventions documents she adopts: their rules are hers; one planted rule sits deep inside --------------------

DOC_A = (
    "# CLAUDE.md — tisserand monorepo\n\nThis file tells coding agents and new teammates how we work in this repo. "
    "Read it before changing anything; when it disagrees with an older README, this file wins.",
    "## Layout\n\n- `apps/web`: the Next.js app (app router). Route segments live in `src/app`, feature code in "
    "`src/features/<feature>`, with one folder per feature and no cross-feature imports.\n- `apps/api`: the Fastify "
    "API. One plugin per resource in `src/routes`, shared helpers in `src/lib`.\n- `packages/ui`: the shared React "
    "component library. It must never import from an app.\n- `packages/db`: the Prisma schema, migrations and the "
    "seed script.\n- `e2e`: Playwright specs and their fixtures.",
    "## Commands\n\n- Install with `pnpm install` at the root; never run npm or yarn in a package folder.\n- "
    "`pnpm -r typecheck`, `pnpm -r lint` and `pnpm -r test` are what CI runs; run them before saying something is "
    "done.\n- `pnpm dev` starts web on :3000 and the API on :3001 with the database from docker compose.\n- "
    "Storybook runs on :6006 with `pnpm storybook` and is the reference for every packages/ui component.",
    "## TypeScript\n\n- `strict` everywhere, plus `noUncheckedIndexedAccess`. Do not silence the compiler with "
    "`as any` or a non-null assertion; narrow instead, or change the type.\n- Prefer `type` imports for types "
    "(`import type { ... }`).\n- Shared types live next to the code that owns them, not in a global types folder.",
    "## React and packages/ui\n\n- Components are function components with `forwardRef` when they render a DOM "
    "element someone may need to focus.\n- Variants go through `cva`; no ad-hoc className switches.\n- Every "
    "interactive component is usable with the keyboard and has a story for each state (default, loading, "
    "disabled, error).\n- Server components by default in apps/web; add \"use client\" only where state or effects "
    "need it.",
    "## API\n\n- Validate every input with a zod schema at the edge of the handler.\n- Errors go through the "
    "helpers in `src/lib/http-errors.ts` so the status codes stay consistent.\n- Log with the request logger "
    "(`request.log`), never with a module-level logger, so the request id follows the line.",
    "## Database\n\n- Schema changes come with a migration in the same PR; name migrations after what they do.\n- "
    "New list queries need an index that matches their `where` and `orderBy`.\n- No raw SQL outside "
    "`packages/db/src/sql`, and every raw query is parameterised.",
    "## Tests\n\n- Unit tests with vitest and Testing Library; query by role and label, the way a user would.\n- "
    "API tests use `app.inject` against a real database reset between tests.\n- A bug fix comes with the test that "
    "would have caught it.",
    "## Git and PRs\n\n- Branches are `camille/<topic>` or `<name>/<topic>`.\n- One concern per PR; refactors and "
    "behaviour changes go in separate PRs.\n- Squash-merge only, and the PR title becomes the commit message, so "
    "write it for someone reading the log in a year.",
    "## When something is unclear\n\n- Look for an existing example in the repo before inventing a pattern; "
    "consistency beats local elegance.\n- If two conventions here conflict, the more specific one wins, and say "
    "so in the PR description.\n- Leave the code a little clearer than you found it, but keep drive-by changes out "
    "of unrelated PRs.",
)
DOC_B = (
    "# Engineering conventions (v2)\n\nThese replace the Notion page from last year. They apply to every "
    "workspace of the monorepo and to any agent working in it.",
    "## Principles\n\n- Small, reversible changes beat big clever ones.\n- If something is surprising, write down "
    "why next to it, in a comment or in the PR description.\n- Delete code you are not using; git remembers it.",
    "## Frontend\n\n- Data fetching in apps/web goes through React Query hooks in `src/features/<feature>/queries.ts`."
    "\n- Mutations invalidate the queries they affect in `onSettled`.\n- Forms use react-hook-form with a schema "
    "resolver; error messages come from the schema, not from the component.\n- Tailwind classes are sorted by the "
    "prettier plugin; don't fight it.",
    "## Accessibility\n\n- Every page has exactly one `h1`.\n- Icons that carry meaning have an accessible name; "
    "decorative ones are `aria-hidden`.\n- Focus is visible everywhere, and dialogs return focus to what opened "
    "them.\n- axe runs in the Storybook test runner; a new violation fails the build.",
    "## Backend\n\n- Handlers stay thin: parse, authorise, call a function in `src/services`, reply.\n- Background "
    "work goes through the job runner, never through a fire-and-forget promise in a handler.\n- Timeouts on every "
    "outgoing HTTP call, five seconds unless there is a reason written next to it.",
    "## Observability\n\n- Every log line carries the request id or the job id.\n- Errors are reported to Sentry "
    "once, at the boundary, not at every layer they pass through.\n- New endpoints get a latency histogram and an "
    "error counter.",
    "## Testing\n\n- Unit tests for logic, API tests for routes, a few e2e specs for the paths customers pay for."
    "\n- Flaky tests are fixed or quarantined the day they are noticed, with an issue linked from the skip.\n- "
    "Fixtures create their own data; no test depends on another test's leftovers.",
    "## Dependencies\n\n- Prefer the platform and what we already use over a new package.\n- Every new "
    "package gets a line in the PR description: what it does, its size, its licence, and who maintains it.\n- "
    "Renovate opens the update PRs; patch updates merge on green, minor and major updates need a human look at the "
    "changelog.",
    "## Security\n\n- Secrets live in the platform's secret store and in `.env.local`, never in the repo, not even "
    "in an example file.\n- Every endpoint checks the team of the caller against the team of the row it reads or "
    "writes.\n- File uploads are scanned and served from a separate domain with a short-lived signed URL.",
    "## Performance\n\n- Measure before optimising, and put the numbers in the PR.\n- Lists are paginated on the "
    "server; nothing loads an unbounded table into memory.\n- Images go through the framework's image component "
    "with explicit sizes, and fonts are self-hosted.",
    "## Reviews\n\n- Reviews answer within one working day.\n- Approve with nits when the nits are optional; "
    "request changes only for things that must change.\n- The author merges, after CI is green.",
)
DOC_RULES = (
    ("assertTenant(ctx)", "- Every server action and every API handler calls `assertTenant(ctx)` before it touches "
     "the database; a missing call is a security bug, not a style nit.", "What must every server action and "
     "handler call before it touches the database?"),
    ("flags.isEnabled()", "- Feature flags are read only through `flags.isEnabled()` from `@tisserand/flags`; "
     "never query the flag table directly.", "How must feature flags be read according to the adopted conventions?"),
    ("one queryKeys.ts per feature", "- React Query keys come from one queryKeys.ts per feature; no inline key "
     "arrays anywhere else.", "Where must React Query keys be defined according to the adopted conventions?"),
    ("data-testid only as a last resort", "- In Playwright specs, locate by role or label, data-testid only as a "
     "last resort, and then prefixed with the feature name.", "What does the adopted conventions document say "
     "about test ids in e2e specs?"),
)


def _conventions(rng: random.Random, doc: tuple[str, ...], rule: str) -> str:
    """The document with ``rule`` as a bullet of one of its middle sections, well away from both ends."""
    sections = list(doc)
    at = rng.randint(4, len(sections) - 3)
    lines = sections[at].split("\n")
    lines.insert(rng.randint(3, len(lines)), rule)
    sections[at] = "\n".join(lines)
    return "\n\n".join(sections)


# --- what she plants: rules (shape, words with {v}, value, query) ----------------------------------------------------

Draw = Callable[[random.Random], str]
INSTRUCTIONS: tuple[tuple[str, str, Draw, str], ...] = (
    ("casual", "we don't do default exports in packages/ui btw, named only. {v} is the rule that'll yell at you",
     lambda r: "import/no-default-export", "Which lint rule backs her export-style preference in packages/ui?"),
    ("indirect", "i'd rather you never touch anything under {v}, CI regenerates it and the diffs are awful",
     lambda r: "packages/db/prisma/generated", "Which generated directory must the agent never edit?"),
    ("reason", "the staging db is shared with QA, so only ever create migrations with {v} and let me apply them",
     lambda r: "--create-only", "With which flag must migrations be created, given the shared staging database?"),
    ("french", "à partir de maintenant lance vitest avec {v} stp, les threads plantent sur mon mac",
     lambda r: "--pool=forks", "Which vitest option must the agent always pass on her machine?"),
    ("profile", "fyi i'm on the payments team — anything in {v} is mine, ask before you change stuff there",
     lambda r: "apps/api/src/billing-core", "Which directory belongs to her, needing her OK before changes?"),
    ("casual", "never bump versions in package.json by hand, releases go through {v}",
     lambda r: "pnpm changeset", "How must package version bumps be made?"),
    ("reason", "our coverage config skips test folders, so tests always go as {v} beside the source",
     lambda r: "colocated *.test.tsx files", "Where must new test files be placed?"),
    ("indirect", "would be nice if new deps went through {v} before you add them",
     lambda r: "#eng-deps-review", "Where should a new dependency be proposed before adding it?"),
    ("casual", "timezones: {v} only. no moment, no luxon", lambda r: "date-fns-tz",
     "Which library must be used for timezone handling?"),
    ("french", "et les messages de commit en anglais stp, {v}, genre fix(ui): ...",
     lambda r: "conventional commits avec scope", "What format must commit messages follow?"),
    ("casual", "styling in apps/web is tailwind only — {v}", lambda r: "no css modules, ever",
     "Which styling approach is banned in apps/web?"),
    ("reason", "webkit is broken on my mac so for local e2e runs use {v} only",
     lambda r: "--project=chromium-desktop", "Which Playwright project must local e2e runs use?"),
    ("indirect", "i'd prefer nothing reads process.env directly in apps/web, it all goes through {v}",
     lambda r: "apps/web/src/env.mjs", "Through which module must the web app read environment variables?"),
    ("casual", "if you ever need to force push it's {v}, never plain --force", lambda r: "--force-with-lease",
     "Which force-push flag is allowed?"),
    ("reason", "i review on my phone so keep PRs under {v}, split them otherwise",
     lambda r: f"{r.randint(25, 45) * 10} changed lines", "What size limit applies to the agent's PRs?"),
    ("casual", "money is always integer cents in a field named {v}, never floats", lambda r: "amountCents",
     "How must money amounts be stored and named?"),
    ("french", "quand je t'écris en français réponds en français, mais {v}",
     lambda r: "le code et les commentaires restent en anglais",
     "In which language must code and comments stay when she writes in French?"),
    ("reason", "the full playwright suite takes like 14 min so locally only run {v}", lambda r: "--grep @smoke",
     "Which subset of the e2e suite may be run locally?"),
    ("indirect", "it'd help if your final summaries stayed under {v}, i read them between meetings",
     lambda r: f"{r.randint(3, 6)} bullet points", "How long may the agent's final summaries be?"),
    ("profile", "i'm the only one who deploys the api, so never run {v} yourself", lambda r: "pnpm deploy:api",
     "Which deploy command must the agent never run?"),
    ("casual", "api handlers return {v}, don't throw into fastify", lambda r: "{ data, error } envelopes",
     "What must API handlers return instead of throwing?"),
    ("french", "et stp, jamais de {v} dans ce qu'on merge", lambda r: "console.log de debug",
     "What must never be left in merged code?"),
    ("profile", "i'm in lyon and ci runs in virginia, so date tests must pin {v}", lambda r: "TZ=Europe/Paris",
     "Which timezone must date tests pin?"),
    ("indirect", "don't hand-edit anything in {v}, the openapi generator overwrites it",
     lambda r: "packages/api-client/src/gen", "Which generated client directory must not be hand-edited?"),
)
INSTRUCTION_ACKS = ("Noted — `{v}` from now on.", "Got it, I'll stick to that.", "Understood.", "Noted: {v}.",
                    "OK, will do.", "D'accord, noté.")


def _near(r: random.Random, a: int, spread: tuple[int, ...]) -> int:
    return a + r.choice(spread)


def _pair_port(r: random.Random) -> tuple[str, str]:
    a = r.randint(4310, 4349)
    return f"localhost:{a}", f"localhost:{_near(r, a, (-6, -4, -2, 2, 4, 6))}"


def _pair_bucket(r: random.Random) -> tuple[str, str]:
    return f"tisserand-receipts-us-{r.randint(1, 4)}", f"tisserand-receipts-eu-{r.randint(5, 9)}"


def _pair_pg(r: random.Random) -> tuple[str, str]:
    a = r.randint(2, 5)
    return f"postgres 15.{a}", f"postgres 15.{a + r.randint(1, 3)}"


def _pair_node(r: random.Random) -> tuple[str, str]:
    a = r.randint(10, 12)
    return f"node 20.{a}.{r.randint(0, 1)}", f"node 20.{a + r.randint(1, 3)}.{r.randint(0, 1)}"


def _pair_host(r: random.Random) -> tuple[str, str]:
    a = r.randint(1, 4)
    return f"staging-{a}.tisserand.dev", f"staging-{a + r.randint(1, 5)}.tisserand.dev"


def _pair_week(r: random.Random) -> tuple[str, str]:
    a = r.randint(20, 40)
    return f"release/2024-w{a}", f"release/2024-w{a + 1}"


def _pair_cron(r: random.Random) -> tuple[str, str]:
    h = r.randint(1, 5)
    return f"0{h}:15 UTC", f"0{h}:45 UTC"


def _pair_rate(r: random.Random) -> tuple[str, str]:
    a, b = r.sample((90, 120, 150, 240, 300), 2)
    return f"{a} req/min", f"{b} req/min"


def _pair_cache(r: random.Random) -> tuple[str, str]:
    a = r.randint(1, 4)
    return f"cache-{a}.tisserand.internal", f"cache-{a + r.randint(1, 4)}.tisserand.internal"


def _fixed(old: str, new: str) -> Callable[[random.Random], tuple[str, str]]:
    return lambda r: (old, new)


# (draw old and new, how she first says it with {old}, how she corrects it with {new} and {old}, query)
CORRECTIONS: tuple[tuple[Callable[[random.Random], tuple[str, str]], str, str, str], ...] = (
    (_pair_port, "fyi the otel collector on staging listens on {old}, we'll need it for the tracing thing",
     "wait no, the collector is on {new} not {old}, i mixed it up with the grpc one",
     "On which host and port does the staging OpenTelemetry collector listen?"),
    (_pair_bucket, "receipts go to the s3 bucket {old} btw, for whenever we do the upload thing",
     "the other bucket — the eu one: {new}. {old} is the legacy one", "Which S3 bucket holds the receipts?"),
    (_fixed("packages/charts-core", "packages/chart-kit"), "the shared revenue charts live in {old} if u need them",
     "ugh i meant {new}, not the charts-core thing", "Which package holds the shared revenue charts?"),
    (_pair_pg, "staging runs {old}, in case a migration needs something fancy",
     "sorry, staging is {new} not {old}", "Which Postgres version does staging run?"),
    (_pair_node, "ci pins {old} fwiw", "checked the workflow, ci is actually on {new}",
     "Which Node version does CI pin?"),
    (_fixed("#payments-alerts", "#payments-oncall"), "deploy notifications for billing go to {old}",
     "not that channel, {new} — {old} got archived", "Which Slack channel gets billing deploy notifications?"),
    (_fixed("Agathe Morel", "Aurélie Morin"), "anything touching invoices, ask {old} to review",
     "ah no, {new} reviews invoice stuff now, agathe moved to mobile", "Who reviews changes that touch invoices?"),
    (_pair_host, "the preview QA uses is {old}", "QA moved, it's {new} now", "Which host is the QA preview on?"),
    (_pair_cron, "the dunning retry job fires at {old} every day", "correction, it runs at {new}, ops moved it",
     "At what time does the daily dunning retry job run?"),
    (_pair_rate, "public api rate limit is {old} per key", "no wait, the limit is {new} per key, {old} was the old plan",
     "What is the public API rate limit per key?"),
    (_pair_week, "hotfixes go on {old} this week", "wrong week, hotfixes go on {new}",
     "Which branch do this week's hotfixes go on?"),
    (_fixed("tisserand_payments_dev", "tisserand_payments_local"), "my local db is called {old}",
     "my bad, the local db is {new}", "What is her local database called?"),
    (_fixed("billing@tisserand.fr", "factures@tisserand.fr"), "invoice emails are sent from {old}",
     "non attends, l'expéditeur c'est {new}, pas {old}", "From which address are invoice emails sent?"),
    (_fixed("eu-west-3", "eu-west-1"), "the receipts lambda runs in {old}", "ugh, it's {new}, not paris",
     "In which AWS region does the receipts lambda run?"),
    (_pair_cache, "the rate limiter uses redis at {old}", "pardon, le redis du limiter c'est {new}",
     "Which redis host does the rate limiter use?"),
    (_fixed("/hooks/stripe-v1", "/hooks/stripe-v2"), "stripe posts webhooks to {old} on our side",
     "wait, the webhook path is {new}, v1 is dead", "Which path receives Stripe webhooks?"),
)


# (one choice, the other choice, query): a revised decision states the first and later switches to the second
DECISIONS = (
    ("valibot for the form schemas", "arktype for the form schemas", "Which schema library was chosen for forms?"),
    ("keyset pagination on /v2/payouts", "offset pagination on /v2/payouts", "How is /v2/payouts paginated?"),
    ("pg-boss for the dunning jobs", "bullmq for the dunning jobs", "Which queue runs the dunning jobs?"),
    ("uuidv7 ids on the new billing tables", "cuid2 ids on the new billing tables",
     "Which id scheme do the new billing tables use?"),
    ("react-email for the invoice emails", "mjml for the invoice emails", "How are invoice emails templated?"),
    ("visx for the revenue charts", "nivo for the revenue charts", "Which chart library draws the revenue charts?"),
    ("dinero.js for money math", "plain bigint cents for money math", "How is money arithmetic done?"),
    ("growthbook for the rollout flags", "a flags table in postgres for the rollout flags",
     "What backs the rollout feature flags?"),
    ("presigned PUT uploads for receipts", "tus resumable uploads for receipts", "How are receipts uploaded?"),
    ("next-intl for the invoice pdf locales", "lingui for the invoice pdf locales",
     "Which i18n library localizes invoice PDFs?"),
    ("zustand for the checkout wizard", "useReducer for the checkout wizard",
     "What holds the checkout wizard's state?"),
    ("msw for the stripe mocks", "stripe-mock in docker for the stripe mocks", "How is Stripe mocked in tests?"),
    ("trpc for the admin panel", "plain fastify routes for the admin panel", "What does the admin panel call?"),
    ("soft deletes on Refund", "hard deletes plus an audit row on Refund", "How are Refund rows deleted?"),
    ("server components for the billing pages", "client-side fetching for the billing pages",
     "How do the billing pages fetch data?"),
    ("puppeteer for the invoice pdfs", "react-pdf for the invoice pdfs", "What renders the invoice PDFs?"),
)
DECIDE = ("let's go with {v}", "ok decided: {v}. {person} agreed on the call", "on part sur {v}, c'est plus simple",
          "{v}, final answer", "going with {v}, the other option was too heavy", "after the arch sync: {v}",
          "ok so {v}. don't overthink it")
REVISE = ("actually scrap {old}, {v} instead — {why}", "changed my mind: {v}. forget what i said about {old}",
          "finalement {v}, pas {old}. désolée", "hmm no, let's do {v} after all, {old} {why}")
WHY = ("it doesn't play well with our bundler", "the license is a problem", "ops can't run it", "too much magic",
       "karim benchmarked it and it's slow", "it's overkill for two screens")
DECISION_ACKS = ("Okay, {v} it is.", "Noted.", "Got it.", "Makes sense, noted: {v}.")

# (steps, which one is planted): her plans, the planted step being the distinctive one
PLANS: tuple[tuple[tuple[str, ...], int], ...] = (
    (("add the PayoutHold model and its migration", "backfill payout_holds from the march csv export",
      "show a banner on held payouts", "e2e for releasing a hold"), 1),
    (("split useDunningSchedule into a pure planner and a react hook", "unit-test the planner with fake timers",
      "wire the new hook into the dunning page"), 0),
    (("freeze the old proration endpoint", "ship /v2/proration/preview behind a flag", "move the seat modal over",
      "delete v1 after two weeks"), 1),
    (("dual-write remittance rows into ledger_entries", "compare totals nightly for a week", "flip the reads",
      "drop the old columns"), 0),
    (("add a db view so old queries keep working", "rename Voucher.code to Voucher.redeemCode",
      "update the admin search", "drop the view"), 1),
    (("store chargeback evidence uploads in their own table", "link them from the dispute timeline",
      "email finance when a dispute opens"), 0),
    (("extract the tariff grid into packages/tariff-grid", "give it stories and tests",
      "use it in both the web pricing page and the admin"), 0),
    (("replace the rebate cron with a queue consumer", "make it idempotent per period", "kill the cron"), 0),
    (("put escrow releases behind a two-person approval", "log every approval in the audit table",
      "add the approvals inbox to the admin"), 0),
    (("validate tax ids against VIES before saving", "cache VIES answers for a day", "show a warning, not an error"), 0),
    (("store mandate signatures with a sha256 of the pdf", "verify the hash on download",
      "backfill the hashes for old mandates"), 0),
    (("batch settlements per merchant per day", "keep the per-payout view as a drill-down",
      "tell finance before switching"), 0),
    (("add an idempotency key column to refunds", "reject duplicate refund requests with 409", "retry safely in the worker"), 0),
    (("move seat-plan limits out of code into a SeatPlanLimit table", "seed it from the current constants",
      "let support edit it in the admin"), 0),
    (("cache tariff lookups in redis for ten minutes", "bust the cache on tariff edits", "measure the hit rate"), 0),
    (("generate credit note numbers from a per-year sequence", "backfill numbers for this year",
      "show them on the pdf"), 0),
)
PLAN_SHAPES = ("numbered", "prose", "french", "arrows")


def _plan_text(rng: random.Random, steps: tuple[str, ...], shape: str) -> str:
    if shape == "numbered":
        head = rng.choice(("plan for the next days:", "ok here's the plan", "roadmap for this, roughly:"))
        return head + "\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(steps, 1))
    if shape == "french":
        words = ["d'abord", "ensuite", "puis", "et enfin"]
        parts = [f"{words[min(i, 2) if i < len(steps) - 1 else 3]} {s}" for i, s in enumerate(steps)]
        return "le plan : " + ", ".join(parts) + "."
    if shape == "arrows":
        return "order of things: " + " -> ".join(steps)
    words = ["first", "then", "then", "and last"]
    parts = [f"{words[min(i, 2) if i < len(steps) - 1 else 3]} {s}" for i, s in enumerate(steps)]
    return "so the plan: " + ", ".join(parts) + "."


# --- names only planted material uses ------------------------------------------------------------------------------

AREAS = {"Payout": "payouts", "Dunning": "dunning", "Proration": "proration", "Voucher": "vouchers",
         "Remittance": "remittances", "Chargeback": "chargebacks", "Tariff": "tariffs", "Rebate": "rebates",
         "Escrow": "escrow", "Ledger": "ledger", "SeatPlan": "seat-plans", "TaxId": "tax-ids",
         "CreditNote": "credit-notes", "Mandate": "mandates", "Settlement": "settlements", "Refund": "refunds"}
UI_PARTS = ("HoldBanner", "Timeline", "Preview", "RedeemForm", "Summary", "Stepper", "Calculator", "Wizard",
            "ExportButton", "Filters", "Notice", "Breakdown")
CODE_PARTS = ("Service", "Policy", "Job", "Handler", "Repository", "Mapper", "Scheduler", "Guard", "Reconciler",
              "Importer")
KEY_PARTS = ("BatchSize", "RetryHours", "CutoffDays", "GraceDays", "MaxAttempts", "LockTimeoutMs", "WindowMinutes",
             "TtlDays", "FeeBasisPoints", "RoundingScale")
VERBS = ("apply", "settle", "reconcile", "compute", "schedule", "release", "allocate", "validate")
FLOWS = ("release-flow", "bulk-edit", "approval", "export", "retry", "first-run")
FACT_TITLES = ("shows the held amount", "disables submit while pending", "keeps totals in cents",
               "lists entries newest first", "renders the empty period", "warns before releasing")
FLAG_SLUGS = ("split-tender", "hold-release", "smart-retry", "seat-proration", "eu-invoicing", "instant-payouts",
              "partial-refunds", "escrow-approvals")
MIGRATION_SLUGS = ("add_payout_holds", "remittance_batches", "chargeback_evidence", "tariff_grid_versions",
                   "rebate_periods", "escrow_approvals", "ledger_entry_kind", "seat_plan_limits",
                   "credit_note_sequence", "mandate_signatures", "settlement_batches", "refund_idempotency_key")


class _Names:
    """Draws planted names without replacement, so no planted value holds another."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.ui = [(s, p) for s in AREAS for p in UI_PARTS]
        self.code = [(s, p) for s in AREAS for p in CODE_PARTS]
        self.keys = [(s, p) for s in AREAS for p in KEY_PARTS]
        self.fns = [(v, s) for v in VERBS for s in AREAS]
        self.flows = [(s, f) for s in AREAS for f in FLOWS]
        self.numbers: set[int] = set()
        for pool in (self.ui, self.code, self.keys, self.fns, self.flows):
            rng.shuffle(pool)
        self.flags = list(FLAG_SLUGS)
        self.migrations = list(MIGRATION_SLUGS)
        rng.shuffle(self.flags)
        rng.shuffle(self.migrations)

    def ui_path(self) -> tuple[str, str, str]:
        stem, part = self.ui.pop()
        return f"apps/web/src/features/{AREAS[stem]}/{stem}{part}.tsx", stem + part, stem

    def code_path(self) -> tuple[str, str, str]:
        stem, part = self.code.pop()
        name = _camel(stem) + part
        return f"apps/api/src/{AREAS[stem]}/{name}.ts", name, stem

    def key(self) -> tuple[str, str]:
        stem, part = self.keys.pop()
        return _camel(stem) + part, stem

    def fn(self) -> tuple[str, str]:
        verb, stem = self.fns.pop()
        return verb + stem, stem

    def flow(self) -> tuple[str, str]:
        stem, flow = self.flows.pop()
        return f"{AREAS[stem]}-{flow}", stem

    def number(self, lo: int, hi: int) -> int:
        while True:
            k = self.rng.randint(lo, hi)
            if k not in self.numbers:
                self.numbers.add(k)
                return k

    def slug(self, pool: list[str]) -> str:
        return pool.pop() if pool else f"extra_{self.number(100, 999)}"


FACT_TSX = '''import { useMemo } from "react";
import { Badge, Card } from "@tisserand/ui";
import { formatMoney } from "@/lib/money";
import type { @N@Props } from "./types";

export function @N@({ entries, currency, pending = false }: @N@Props) {
  const total = useMemo(() => entries.reduce((sum, e) => sum + e.amount, 0), [entries]);
  const newest = entries.at(0);
  return (
    <Card className="flex flex-col gap-3" aria-busy={pending || undefined}>
      <header className="flex items-center justify-between">
        <h2 className="text-base font-semibold">@H@</h2>
        {newest ? <Badge tone="neutral">{newest.status}</Badge> : null}
      </header>
      <p className="text-2xl tabular-nums">{formatMoney(total, currency)}</p>
      <ul className="divide-y divide-neutral-200">
        {entries.map((entry) => (
          <li key={entry.id} className="flex justify-between py-2 text-sm">
            <span>{entry.label}</span>
            <span className="tabular-nums">{formatMoney(entry.amount, currency)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}'''

FACT_TS = '''import { prisma } from "@tisserand/db";
import type { FastifyBaseLogger } from "fastify";

export interface @N@Input {
  teamId: string;
  periodStart: Date;
  periodEnd: Date;
}

export async function @n@(input: @N@Input, log: FastifyBaseLogger) {
  const rows = await prisma.$transaction(async (tx) => {
    const open = await tx.@m@.findMany({
      where: { teamId: input.teamId, createdAt: { gte: input.periodStart, lt: input.periodEnd } },
      orderBy: { createdAt: "asc" },
    });
    log.info({ teamId: input.teamId, count: open.length }, "@n@: loaded");
    return open;
  });
  const total = rows.reduce((sum, row) => sum + row.amount, 0);
  return { count: rows.length, total };
}'''


def _fact_code(name: str, stem: str, tsx: bool, rng: random.Random) -> str:
    helpers = "\n\n// --- helpers ---\n\n" + _fill("\n\n".join(rng.sample(UTIL_BLOCKS, rng.randint(3, 5))), _ctx(rng))
    if tsx:
        human = " ".join(w.lower() for w in _snake(name).split("_")).capitalize()
        return FACT_TSX.replace("@N@", name).replace("@H@", human) + helpers
    return FACT_TS.replace("@N@", _pascal(name)).replace("@n@", name).replace("@m@", _camel(stem) + "Entry") + helpers


@dataclass
class Built:
    """A tool-side plant: what she asks, the steps (the fact in the first call of ``steps[fact]``), the answer."""

    request: str
    final: str
    steps: list[Step]
    fact: int
    resolved: int | None = None
    pad: int = 0  # a step that can take one more parallel call


def _bash(cmd: str, out: str, why: str = "Run it") -> Call:
    return "Bash", _args(command=cmd, description=why), out


def _fix_step(rng: random.Random, path: str, name: str, stem: str, why: str) -> Step:
    code = _fact_code(name, stem, path.endswith(".tsx"), rng)
    lines = code.split("\n")
    at = rng.choice([i for i, line in enumerate(lines) if i > 2 and line.rstrip().endswith((";", "{", ","))])
    new_line = lines[at] + "  // narrowed"
    edited = code.replace(lines[at], new_line, 1)
    return (f"{why} Fixing it in `{path}`.",
            [("Edit", _args(file_path=f"{HOME}/{path}", old_string=lines[at].strip(), new_string=new_line.strip()),
              _edit_result(path, edited, at))])


def _edit_call(path: str, text: str, old: str, new: str) -> Call:
    at = next((i for i, line in enumerate(text.split("\n")) if old in line), 0)
    return ("Edit", _args(file_path=f"{HOME}/{path}", old_string=old, new_string=new),
            _edit_result(path, text.replace(old, new, 1), at))


ERROR_KINDS = ("tsc", "vitest", "playwright", "eslint", "prisma", "runtime", "build")


def _error(rng: random.Random, names: _Names, kind: str, resolved: bool) -> tuple[Built, str, str]:
    """A failing Bash run whose output holds the planted line; resolved ones are fixed and re-run clean."""
    ctx = _ctx(rng)
    at, col = rng.randint(12, 90), rng.randint(3, 40)
    if kind in ("tsc", "eslint"):
        path, name, stem = names.ui_path() if rng.random() < 0.5 else names.code_path()
        key, _ = names.key()
        if kind == "tsc":
            value = f"{path}({at},{col}): " + rng.choice((
                f"error TS2339: Property '{key}' does not exist on type '{stem}Settings'.",
                f"error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type '{stem}Id'.",
                f"error TS2322: Type 'number' is not assignable to type '{stem}Cents'."))
            cmd = "pnpm exec tsc -b --verbose --pretty false"
            fail, ok = _tsc(rng, [value] + _filler_tsc_errors(rng, ctx)), _tsc(rng, [])
            request = rng.choice(("typecheck is red on main, can you look", "tsc fails after the merge, fix pls",
                                  "the typecheck job in ci is red"))
            final = (f"Typecheck was red in `{name}`: a value that can be missing reached a strict type. Narrowed it; "
                     f"`tsc -b` is clean.")
            query = f"Which exact typecheck error line was reported for {name}?"
        else:
            value = (f"{HOME}/{path}:{at}:{col}: '{key}' is assigned a value but never used. "
                     f"[Error/@typescript-eslint/no-unused-vars]")
            cmd = "pnpm exec eslint . --format unix"
            fail, ok = _eslint(rng, ctx, [value]), _eslint(rng, ctx, [])
            request = rng.choice(("lint job is red", "eslint fails in ci, can u fix", "lint cassé sur main"))
            final = f"Lint failed on an unused `{key}` in `{name}`; removed it. Only the usual warnings are left."
            query = f"Which eslint error line was printed for {name}?"
        fix_path, fix_name, fix_stem = path, name, stem
    elif kind in ("vitest", "build"):
        path, name, stem = names.ui_path()
        fix_path, fix_name, fix_stem = path, name, stem
        if kind == "vitest":
            test_file, title = path.replace(".tsx", ".test.tsx"), rng.choice(FACT_TITLES)
            value = f"FAIL  {test_file} > {name} > {title}"
            cmd = f"pnpm --filter @tisserand/web test -- --run {AREAS[stem]}"
            fail, ok = _vitest(rng, fail=(test_file, name, title)), _vitest(rng, also=test_file)
            request = rng.choice(("web unit tests are failing since this morning", "vitest is red in apps/web, pls fix",
                                  "les tests unitaires de web sont rouges"))
            final = (f"The `{name}` test failed on '{title}': the component rendered before its totals settled. "
                     f"Fixed the component; the {AREAS[stem]} tests pass.")
            query = f"Which vitest failure line was printed for the {name} test?"
        else:
            key, _ = names.key()
            value = f"Type error: Property '{key}' does not exist on type '{name}Props'."
            frame = (f"./src/features/{AREAS[stem]}/{name}.tsx:{at}:{col}\n{value}\n\n  {at - 1} |   const total = "
                     f"useMemo(() => sum(entries), [entries]);\n> {at} |   const cutoff = props.{key};\n    |"
                     "                          ^")
            cmd = "pnpm --filter @tisserand/web build"
            fail, ok = _next_build(rng, ctx, error=frame), _next_build(rng, ctx)
            request = rng.choice(("next build is broken", "vercel build failed, can you check locally",
                                  "le build de web casse"))
            final = f"`next build` failed on `{key}` missing from `{name}Props`. Added it to the type; the build passes."
            query = f"Which type error broke the Next.js build in {name}?"
    elif kind == "playwright":
        slug, stem = names.flow()
        spec, describe, title = f"e2e/{slug}.spec.ts", slug.replace("-", " "), rng.choice(FACT_TITLES)
        label = f"[chromium] › {spec}:{at}:5 › {describe} › {title}"
        value = f"✘  {rng.randint(3, 30)} {label} (30.0s)"
        cmd = f"pnpm exec playwright test {spec}"
        fail, ok = _playwright(rng, fail=(value, spec, describe, title, at)), _playwright(rng, also=label)
        fix_path, fix_name, fix_stem = names.ui_path()
        request = rng.choice((f"the {describe} e2e keeps failing", "e2e red on main again, the payments ones",
                              f"can you look at the {describe} spec, it times out"))
        final = (f"The {describe} e2e timed out on '{title}' because the button mounted late. It now renders "
                 f"disabled while loading; the spec passes.")
        query = f"Which Playwright line reported the {describe} e2e failure?"
    elif kind == "prisma":
        key, stem = names.key()
        column, relation, stamp = _snake(key), f"{stem}Entry", _migration_stamp(rng)
        migration = f"{stamp}_require_{column}"
        value = f"ERROR: column \"{column}\" of relation \"{relation}\" contains null values"
        cmd = f"pnpm --filter @tisserand/db exec prisma migrate dev --name require_{column}"
        fail = "\n".join([
            "Environment variables loaded from .env", "Prisma schema loaded from prisma/schema.prisma",
            "Datasource \"db\": PostgreSQL database \"tisserand_dev\", schema \"public\" at \"localhost:5432\"", "",
            f"{len(PRISMA_OLD)} migrations found in prisma/migrations", ""] + [
            f"Migration `{m}` already applied" for m in PRISMA_OLD] + [
            "", f"Applying migration `{migration}`", "Error: P3018", "", "A migration failed to apply. New migrations "
            "cannot be applied before the error is recovered from. Read more about how to resolve migration issues "
            "in a production database: https://pris.ly/d/migrate-resolve", "", f"Migration name: {migration}", "",
            "Database error code: 23502", "", "Database error:", value, "",
            f"DbError {{ severity: \"ERROR\", code: SqlState(E23502), table: Some(\"{relation}\"), column: "
            f"Some(\"{column}\"), routine: Some(\"ATRewriteTable\") }}"])
        ok = _prisma_dev(rng, ctx, name=f"{_migration_stamp(rng)}_require_{column}")
        sql = f"ALTER TABLE \"{relation}\" ALTER COLUMN \"{column}\" SET NOT NULL;"
        fix = _edit_call(f"packages/db/prisma/migrations/{migration}/migration.sql", f"-- not null\n{sql}\n", sql,
                         f"UPDATE \"{relation}\" SET \"{column}\" = 0 WHERE \"{column}\" IS NULL;\n{sql}")
        request = rng.choice((f"can you make {column} required and run the migration locally",
                              f"add the not-null on {column} pls"))
        final = (f"The migration failed because existing `{relation}` rows had nulls in `{column}`. Added a backfill "
                 f"before the NOT NULL; it applies cleanly now.")
        query = f"What database error did the {column} migration hit?"
        fix_path = fix_name = fix_stem = ""
    else:
        path, name, stem = names.code_path()
        key, _ = names.key()
        test_file, title = path.replace(".ts", ".test.ts"), rng.choice(FACT_TITLES)
        value = f"TypeError: Cannot read properties of undefined (reading '{key}')"
        cmd = f"pnpm --filter @tisserand/api test -- --run {AREAS[stem]}"
        fail, ok = _vitest(rng, fail=(test_file, name, title), why=value), _vitest(rng, also=test_file)
        request = rng.choice((f"api tests crash in {AREAS[stem]}", f"the {AREAS[stem]} api tests are red"))
        final = (f"The {AREAS[stem]} API test crashed reading `{key}` off an undefined settings object. Added the "
                 f"default; the tests pass.")
        query = f"What TypeError did the {AREAS[stem]} API tests crash with?"
        fix_path, fix_name, fix_stem = path, name, stem
    first: Step = (rng.choice(("Running it to see the failure.", "Let me reproduce first.", "")),
                   [_bash(cmd, fail, "Reproduce")])
    if not resolved:
        where = fix_path or "the migration"
        note: Step = (f"That failure is in `{where}`, which this change doesn't touch; checking who changed it last.",
                      [_bash(f"git log --oneline -n 20 -- {where}", _git_log(rng, ctx, 20), "History")])
        final = (f"Found the failure, in `{where}`. It's in code this task doesn't touch and {ctx['person']} has an "
                 f"open branch on it, so I left it alone. Everything else is green.")
        return Built(request, final, [first, note], 0, None, 1), value, query
    if kind == "prisma":
        fix_step: Step = ("Existing rows have nulls there; backfilling before the constraint.", [fix])
    else:
        fix_step = _fix_step(rng, fix_path, fix_name, fix_stem, "Found the cause.")
    again: Step = ("Re-running to confirm.", [_bash(cmd, ok, "Verify")])
    return Built(request, final, [first, fix_step, again], 0, 2, 2), value, query


def _human(name: str) -> str:
    return " ".join(_snake(name).split("_"))


def _file(rng: random.Random, names: _Names) -> tuple[Built, str, str]:
    """The agent writes (or edits) a planted file: its path is the value, in that message's single call."""
    tsx = rng.random() < 0.6
    path, name, stem = names.ui_path() if tsx else names.code_path()
    area, base, human = AREAS[stem], path.rsplit("/", 1)[0], _human(name)
    siblings = ("index.ts", "types.ts", "queries.ts", f"{stem}Page.tsx", "api.ts", "constants.ts") if tsx else (
        "index.ts", "routes.ts", "schema.ts", "errors.ts", f"{_camel(stem)}.test.ts", "fixtures.ts")
    listing = "\n".join([f"{HOME}/{base}/{s}" for s in rng.sample(siblings, rng.randint(3, 6))] + [
        f"{HOME}/{base}/{sub}/{_pascal(w)}{suffix}" for sub, w, suffix in (
            ("components", "row", ".tsx"), ("components", "header", ".tsx"), ("components", "empty", ".tsx"),
            ("hooks", "use-totals", ".ts"), ("hooks", "use-period", ".ts"), ("__fixtures__", "entries", ".json"),
            ("components", "row", ".test.tsx"), ("components", "skeleton", ".tsx"), ("hooks", "use-totals", ".test.ts"))])
    index = "\n".join(f"export * from \"./{x.rsplit('.', 1)[0]}\";" for x in siblings[1:]) + "\n\n" + "\n\n".join(
        rng.sample(UTIL_BLOCKS, rng.randint(3, 6)))
    look: Step = ("Checking what's already in the feature folder.",
                  [("Glob", _args(pattern=f"{base}/**", path=HOME), listing),
                   ("Read", _args(file_path=f"{HOME}/{base}/index.ts"), _numbered(_fill(index, _ctx(rng))))])
    code = _fact_code(name, stem, tsx, rng)
    if rng.random() < 0.7:
        call: Call = ("Write", _args(file_path=f"{HOME}/{path}", content=code), f"File created successfully at: {HOME}/{path}")
        request = rng.choice((f"can you build the {human} for {area}? design's in figma", f"we need a {human} in the "
                              f"{area} feature", f"add the {human}, same look as the rest of {area}",
                              f"tu peux créer le {human} pour {area} ?"))
        final = (f"Added `{name}` to the {area} feature, typed against the existing entries and exported from the "
                 f"feature index. Typecheck passes.")
        query = f"Which file did the agent create for the {human}?"
    else:
        lines = code.split("\n")
        at = rng.choice([i for i, line in enumerate(lines) if line.rstrip().endswith((";", ","))])
        new = lines[at] + "  // sorted newest first"
        call = ("Edit", _args(file_path=f"{HOME}/{path}", old_string=lines[at].strip(), new_string=new.strip()),
                _edit_result(path, code.replace(lines[at], new, 1), at))
        request = rng.choice((f"the {human} lists entries oldest first, flip it", f"small fix in the {human}: newest first"))
        final = f"`{name}` now lists entries newest first; the {area} tests still pass."
        query = f"Which file did the agent edit to fix the {human} ordering?"
    return Built(request, final, [look, ("", [call])], 1, None, 0), path, query


FINDING_KINDS = ("config", "env", "stack", "slowquery", "constant")
CONFIG_FILLER = ('"enabled": true', '"timeoutMs": 5000', '"logLevel": "info"', '"retries": 3', '"queue": "default"',
                 '"concurrency": 4', '"currency": "EUR"', '"dryRun": false', '"notifyOnFailure": true',
                 '"schedule": "daily"', '"pageSize": 200', '"sentryTag": "jobs"')
ENV_FILLER = ("DATABASE_URL=postgresql://postgres:postgres@localhost:5432/tisserand_dev",
              "REDIS_URL=redis://localhost:6379", "LOG_LEVEL=info", "PORT=3001", "SENTRY_DSN=",
              "STRIPE_SECRET_KEY=sk_test_replace_me", "SESSION_SECRET=change-me-in-prod", "SMTP_HOST=localhost",
              "SMTP_PORT=1025", "PUBLIC_APP_URL=http://localhost:3000", "JOBS_CONCURRENCY=4", "OTEL_ENABLED=false")
SLOW_FILLER = ('SELECT "id", "name" FROM "Project" WHERE "teamId" = $1 ORDER BY "createdAt" DESC LIMIT 26',
               'SELECT * FROM "Membership" WHERE "userId" = $1', 'UPDATE "Notification" SET "readAt" = $1 WHERE "id" = $2',
               'SELECT count(*) FROM "Comment" WHERE "projectId" = $1', 'INSERT INTO "AuditEvent" ("id", "actorId") VALUES ($1, $2)')


def _finding(rng: random.Random, names: _Names, kind: str) -> tuple[Built, str, str]:
    """A tool returns a line the work hangs on; the value is part of that one line."""
    key, stem = names.key()
    area, num = AREAS[stem], rng.choice((3, 7, 12, 18, 25, 36, 48, 90, 240, 420, 750, 7500))
    if kind == "config":
        value = f'"{key}": {num}'
        rows = rng.sample(CONFIG_FILLER, rng.randint(8, 12))
        rows.insert(rng.randrange(len(rows)), value)
        sections = [f'  "{name}": {{\n' + ",\n".join(f"    {r}" for r in rng.sample(CONFIG_FILLER, rng.randint(5, 9))) + "\n  }"
                    for name in ("retryPolicy", "notifications", "export", "audit", "limits", "scheduler")]
        text = "{\n" + ",\n".join([f"  {r}" for r in rows] + sections) + "\n}"
        path = f"apps/api/config/{area}.json"
        before: Step = ("", [("Glob", _args(pattern="apps/api/config/*.json", path=HOME),
                              "\n".join(f"{HOME}/apps/api/config/{a}.json" for a in rng.sample(list(AREAS.values()), 12))
                              + "\n" + "\n".join(f"{HOME}/apps/api/config/{x}.json" for x in (
                                  "default", "development", "test", "staging", "production", "jobs", "mail", "storage")))])
        steps = [before, ("Reading the config for this job.", [("Read", _args(file_path=f"{HOME}/{path}"), _numbered(text))])]
        request = rng.choice((f"why are the {area} runs so slow on staging? something in the config?",
                              f"what's the {area} job configured with? numbers look off"))
        final = f"The {area} config sets `{key}` to {num}; that's what drives the behaviour you saw."
        query = f"What value does the {area} config give {key}?"
        return Built(request, final, steps, 1, None, 0), value, query
    if kind == "env":
        name = _snake(key).upper()
        value = f"{name}={num}"
        rows = rng.sample(ENV_FILLER, rng.randint(8, 12))
        rows.insert(rng.randrange(len(rows)), value)
        rows = ["# Copy to .env.local and fill in. Values here are safe defaults for local work.", ""] + rows + [
            "", "# Observability", "OTEL_SERVICE_NAME=tisserand-api", "OTEL_TRACES_SAMPLER=parentbased_traceidratio",
            "OTEL_TRACES_SAMPLER_ARG=0.1", "", "# Mail", "MAIL_FROM=no-reply@tisserand.test", "MAIL_PREVIEW=true", "",
            "# Feature toggles for local work only", "LOCAL_SEED_TEAMS=3", "LOCAL_SEED_MEMBERS=12", "LOCAL_FAKE_BANK=true"]
        path = f"apps/api/.env.{area}.example"
        before = ("", [_bash("ls -la apps/api", "\n".join([f"total {rng.randint(300, 900)}"] + [
            f"{m}  1 camille staff  {rng.randint(80, 9000):>5} Jun {rng.randint(3, 28):>2} {_clock(rng)[:5]} {f}"
            for m, f in (("drwxr-xr-x", "."), ("drwxr-xr-x", ".."), ("-rw-r--r--", ".env.example"), ("-rw-r--r--", path.rsplit("/", 1)[1]),
                         ("-rw-r--r--", ".env.test"), ("-rw-r--r--", ".eslintrc.cjs"), ("drwxr-xr-x", "config"),
                         ("drwxr-xr-x", "node_modules"), ("-rw-r--r--", "package.json"), ("drwxr-xr-x", "scripts"),
                         ("drwxr-xr-x", "src"), ("drwxr-xr-x", "test"), ("-rw-r--r--", "tsconfig.json"),
                         ("-rw-r--r--", "vitest.config.ts"), ("-rw-r--r--", "Dockerfile"), ("-rw-r--r--", "README.md"))]), "List")])
        steps = [before, ("", [("Read", _args(file_path=f"{HOME}/{path}"), _numbered("\n".join(rows)))])]
        request = rng.choice((f"what env does the {area} worker expect? i'm setting it up on staging",
                              f"which settings does {area} read from env?"))
        final = f"The {area} worker reads the usual database and redis settings, plus `{name}` (set to {num} in the example)."
        query = f"What value does the {area} example env file give {name}?"
        return Built(request, final, steps, 1, None, 0), value, query
    if kind == "stack":
        fn, _ = names.fn()
        path, name, _s = names.code_path()
        at, col = rng.randint(20, 140), rng.randint(5, 40)
        value = f"at {fn} ({path}:{at}:{col})"
        pid = rng.randint(1000, 9999)
        logs = [f"[{_clock(rng)}.{rng.randint(100, 999)}] {rng.choice(('INFO', 'INFO', 'DEBUG'))} (replay/{pid}): "
                + rng.choice(("loading fixtures", "connected to postgres", "redis ready", "job runner started",
                              "fetched 1 event from the dead-letter queue", "resolved team settings",
                              "opened ledger transaction", "computing period boundaries", "warming caches"))
                for _ in range(rng.randint(12, 22))]
        out = "\n".join(logs + [
            f"[{_clock(rng)}.{rng.randint(100, 999)}] INFO (replay/{rng.randint(1000, 9999)}): replaying 1 event",
            f"[{_clock(rng)}.{rng.randint(100, 999)}] INFO (replay/{rng.randint(1000, 9999)}): loaded team cl{_alnum(rng, 12).lower()}",
            "RangeError: Invalid time value", "    at Date.toISOString (<anonymous>)", f"    {value}",
            f"    at async runStep (apps/api/src/lib/jobs.ts:{rng.randint(40, 99)}:7)",
            f"    at async runJob (apps/api/src/lib/jobs.ts:{rng.randint(10, 39)}:5)",
            "    at async main (apps/api/scripts/replay.ts:22:3)", "", "Node.js v20.14.0"])
        cmd = f"pnpm --filter @tisserand/api exec tsx scripts/replay.ts --area {area} --event evt_{_alnum(rng, 16)}"
        steps = [("Replaying the event locally.", [_bash(cmd, out, "Replay")]),
                 ("", [("Read", _args(file_path=f"{HOME}/{path}"), _numbered(_fact_code(name, stem, False, rng)))])]
        request = rng.choice((f"the {area} job died overnight, can you replay the event and see why",
                              f"le job {area} a planté cette nuit, tu peux regarder ?"))
        final = (f"The replay crashes in `{fn}` ({name}.ts, line {at}): it formats a date that can be null for old "
                 f"entries. That's the root cause; the fix is a guard there.")
        query = f"Which stack frame did the {area} replay blame?"
        return Built(request, final, steps, 0, None, 1), value, query
    if kind == "slowquery":
        ms = rng.uniform(2500, 9000)
        value = f'SELECT * FROM "{stem}Entry" WHERE "{key}" > $1 ORDER BY "createdAt" DESC LIMIT 50'
        rows = [f"db-1  | 2024-06-{rng.randint(10, 28)} {_clock(rng)}.{rng.randint(100, 999)} UTC [{rng.randint(60, 99)}] "
                f"LOG:  duration: {rng.uniform(0.2, 40):.3f} ms  execute <unnamed>: {rng.choice(SLOW_FILLER)}"
                for _ in range(rng.randint(14, 26))]
        rows.insert(rng.randrange(len(rows)), f"db-1  | 2024-06-{rng.randint(10, 28)} {_clock(rng)}.{rng.randint(100, 999)} "
                    f"UTC [{rng.randint(60, 99)}] LOG:  duration: {ms:.3f} ms  execute <unnamed>: {value}")
        steps = [("Looking at the postgres log for slow statements.",
                  [_bash("docker compose logs db --since 2h | grep duration", "\n".join(rows), "Slow queries")]),
                 ("", [("Read", _args(file_path=f"{HOME}/packages/db/prisma/schema.prisma"), _numbered(SCHEMA))])]
        request = rng.choice((f"the {area} page takes 8s to load, find the slow query",
                              f"db cpu spikes when someone opens {area}, what's running?"))
        final = (f"The slow statement is the `{stem}Entry` scan filtered on `{key}` ({ms / 1000:.1f} s): nothing "
                 f"indexes that column. An index on it plus `createdAt` would fix it.")
        query = f"Which SQL statement was the slow one behind the {area} page?"
        return Built(request, final, steps, 0, None, 1), value, query
    const = _snake(key).upper()
    path, name, _s = names.code_path()
    value = f"{const} = {num}"
    hits = [f"{path_}:{rng.randint(2, 60)}:export const {c} = {v};" for path_, c, v in rng.sample(CONSTANTS, rng.randint(14, 22))]
    hits += [f"apps/api/src/lib/limits.ts:{rng.randint(2, 20)}:export const MAX_PAGE_SIZE = 100;",
            "apps/web/src/lib/constants.ts:4:export const SEARCH_DEBOUNCE_MS = 250;",
            "packages/ui/src/Toast/constants.ts:1:export const TOAST_LIMIT = 3;",
            "apps/api/src/lib/http.ts:7:export const OUTGOING_TIMEOUT_MS = 5000;",
            f"{path}:{rng.randint(3, 30)}:export const {value};"]
    rng.shuffle(hits)
    listing = [f"{HOME}/apps/api/src/routes/{r}{x}" for r in ROUTES for x in (".ts", ".test.ts")]
    listing += [f"{HOME}/apps/api/src/lib/{x}.ts" for x in ("limits", "http", "jobs", "files", "search", "logger", "http-errors")]
    listing.insert(rng.randrange(len(listing)), f"{HOME}/{path}")
    steps = [("", [("Glob", _args(pattern="apps/api/src/**/*.ts", path=HOME), "\n".join(listing))]),
             ("Looking for where the limit is set.", [("Grep", _args(pattern="export const [A-Z_]+ =", path=HOME, output_mode="content"),
                                                       "\n".join(hits))])]
    request = rng.choice((f"where's the {_human(key)} for {area} defined? support asks", f"is the {area} limit configurable?"))
    final = f"`{const}` is hard-coded to {num} in `{name}.ts`, not configurable today."
    query = f"What is {const} set to?"
    return Built(request, final, steps, 1, None, 0), value, query


PRISMA_OLD = ("20240108101500_init", "20240119143000_add_invites", "20240202091500_team_slug_unique",
              "20240216160000_comments", "20240301110000_audit_events", "20240315083000_api_keys",
              "20240402120000_project_archived_at", "20240419150000_notifications_read_at")
CONSTANTS = (("apps/web/src/lib/constants.ts", "SEARCH_DEBOUNCE_MS", "250"), ("packages/ui/src/Toast/constants.ts", "TOAST_LIMIT", "3"),
             ("apps/api/src/lib/http.ts", "OUTGOING_TIMEOUT_MS", "5000"), ("apps/web/src/lib/constants.ts", "MAX_UPLOAD_MB", "25"),
             ("apps/api/src/lib/limits.ts", "MAX_TEAM_MEMBERS", "200"), ("apps/api/src/lib/limits.ts", "MAX_PROJECTS_FREE", "3"),
             ("packages/ui/src/DataTable/constants.ts", "DEFAULT_PAGE_SIZE", "25"), ("apps/web/src/lib/session.ts", "SESSION_TTL_DAYS", "30"),
             ("apps/api/src/plugins/auth.ts", "TOKEN_LEEWAY_S", "30"), ("apps/web/src/lib/constants.ts", "TOAST_DURATION_MS", "4000"),
             ("packages/ui/src/Tooltip/constants.ts", "OPEN_DELAY_MS", "400"), ("apps/api/src/lib/limits.ts", "MAX_INVITES_PER_DAY", "50"),
             ("apps/web/src/features/search/constants.ts", "MIN_QUERY_LENGTH", "2"), ("apps/api/src/lib/jobs.ts", "JOB_RETRY_LIMIT", "5"),
             ("apps/api/src/lib/jobs.ts", "JOB_BACKOFF_MS", "2000"), ("apps/web/src/lib/constants.ts", "AVATAR_SIZE_PX", "32"),
             ("packages/ui/src/Modal/constants.ts", "Z_INDEX_MODAL", "50"), ("apps/api/src/lib/files.ts", "SIGNED_URL_TTL_S", "900"),
             ("apps/api/src/lib/limits.ts", "MAX_COMMENT_LENGTH", "5000"), ("apps/web/src/lib/constants.ts", "POLL_INTERVAL_MS", "15000"),
             ("apps/api/src/lib/search.ts", "SEARCH_RESULT_CAP", "100"), ("packages/ui/src/Select/constants.ts", "MAX_VISIBLE_OPTIONS", "8"))
ID_TOOL_KINDS = ("gitlog", "migration", "pr", "price", "sentry", "flag")
FACT_COMMITS = ("fix({a}): round per line, not per total", "feat({a}): export as csv", "refactor({a}): split the service",
                "fix({a}): timezone of the period end", "chore({a}): log the batch id", "feat({a}): retry with backoff",
                "fix({a}): skip archived teams", "perf({a}): batch the inserts")


def _docker_ps(rng: random.Random) -> str:
    rows = ["NAME      IMAGE                 COMMAND                  SERVICE   CREATED        STATUS                  PORTS"]
    for svc, image, port in (("api-1", "tisserand-api", "3001"), ("db-1", "postgres:16-alpine", "5432"),
                             ("redis-1", "redis:7-alpine", "6379"), ("mailpit-1", "axllent/mailpit", "8025")):
        rows.append(f"{svc:<9} {image:<21} \"docker-entrypoint.s…\"   {svc[:-2]:<9} {rng.randint(2, 9)} hours ago    "
                    f"Up {rng.randint(2, 9)} hours (healthy)   0.0.0.0:{port}->{port}/tcp")
    return "\n".join(rows)


def _identifier_tool(rng: random.Random, names: _Names, kind: str) -> tuple[Built, str, str]:
    """A tool prints the planted id among others like it."""
    ctx = _ctx(rng)
    stem = rng.choice(list(AREAS))
    area = AREAS[stem]
    if kind == "gitlog":
        value = _hex(rng, 10)
        rows = [f"{_hex(rng, 10)} {rng.choice(FACT_COMMITS).format(a=area)}" for _ in range(rng.randint(18, 30))]
        at = rng.randrange(1, len(rows))
        rows[at] = f"{value} fix({area}): change how totals are rounded"
        show = "\n".join([f"commit {value}{_hex(rng, 30)}", f"Author: {rng.choice(PEOPLE)} <dev@tisserand.fr>", "",
                          f"    fix({area}): change how totals are rounded", "",
                          f" apps/api/src/{area}/totals.ts | 14 +++++++-------", " 1 file changed, 7 insertions(+), 7 deletions(-)",
                          "", _git_diff(rng, ctx)])
        steps = [("Looking at recent history of that code.",
                  [_bash(f"git log --oneline --abbrev=10 -n 14 -- apps/api/src/{area}", "\n".join(rows), "History")]),
                 (f"`{value}` changed the rounding — likely the culprit.", [_bash(f"git show --stat {value}", show, "Show it")])]
        request = f"which commit broke the {area} totals? they were right last week"
        final = (f"The regression came in with the commit that changed how {area} totals are rounded (it's in the log "
                 f"above). Reverting that hunk brings the totals back.")
        return Built(request, final, steps, 0, None, 1), value, f"Which commit introduced the {area} totals regression?"
    if kind == "migration":
        value = f"{_migration_stamp(rng)}_{names.slug(names.migrations)}"
        steps = [("", [_bash("git log --oneline -n 30 -- packages/db/prisma/migrations", _git_log(rng, ctx, 30), "History")]),
                 ("Checking the migration status of your database.",
                  [_bash("pnpm --filter @tisserand/db exec prisma migrate status", _prisma_status(rng, ctx, value), "Status")])]
        request = "did all the migrations run on my db? something's off with the payments tables"
        final = "One migration is still pending on your database (the newest payments one); everything before it is applied."
        return Built(request, final, steps, 1, None, 0), value, "Which migration was still pending on her database?"
    if kind == "pr":
        num = names.number(1000, 2999)
        value = f"tisserand/app/pull/{num}"
        rows = [f"{rng.randint(100, 899)}\t{rng.choice(FACT_COMMITS).format(a=area)}\thttps://github.com/tisserand/app/pull/"
                f"{rng.randint(100, 899)}" for _ in range(rng.randint(10, 18))]
        rows.insert(0, f"{num}\tfeat({area}): new settlement flow\thttps://github.com/{value}")
        files = "\n".join(f"apps/api/src/{area}/{f}" for f in ("index.ts", "routes.ts", "schema.ts", "totals.ts"))
        steps = [("Looking for open PRs on that area.",
                  [_bash(f"gh pr list --search \"{area}\" --state all --json number,title,url --jq '.[] | [.number, .title, "
                         ".url] | @tsv'", "\n".join(rows), "PRs")]),
                 ("", [_bash(f"gh pr view {num}", "\n".join([
                     f"feat({area}): new settlement flow #{num}", f"Open • {ctx['person']} wants to merge 6 commits into main",
                     "", "  Labels: payments, needs-review", "  Reviewers: camille (Requested)", "",
                     "  This moves the batch computation into a service and adds the settlement screen. Migration "
                     "included; run it before testing locally.", "", "  Files:", files, "", "  Checks:",
                     "  ✓ ci / checks (4m12s)", "  ✓ ci / e2e (11m40s)", "  - vercel preview (pending)"]), "PR")])]
        request = f"is someone already working on the {area} stuff? check the PRs"
        final = (f"Yes: {ctx['person']} has an open PR on the {area} code touching the same files. Better to rebase on it "
                 f"once it lands.")
        return Built(request, final, steps, 0, None, 1), value, f"Which open pull request already touches the {area} code?"
    if kind == "price":
        value = f"price_1{_alnum(rng, 23)}"
        data = [{"id": f"price_1{_alnum(rng, 23)}", "object": "price", "active": rng.random() < 0.7, "currency": "eur",
                 "nickname": nick, "unit_amount": amount, "lookup_key": key, "recurring": {"interval": "month"}}
                for nick, amount, key in (("Starter monthly", 900, "starter_monthly"), ("Team monthly", 2900, "team_monthly"),
                                          ("Legacy pro", 4900, "pro_monthly_2022"))]
        data.insert(0, {"id": value, "object": "price", "active": True, "currency": "eur", "nickname": "Seat pro monthly",
                        "unit_amount": 1200, "lookup_key": "seat_pro_monthly", "recurring": {"interval": "month"}})
        steps = [("", [_bash("docker compose logs api --tail 40", _docker_logs(rng, ctx), "Logs")]),
                 ("Listing prices in test mode.", [_bash("stripe prices list --limit 4", json.dumps(
                     {"object": "list", "data": data, "has_more": False}, indent=2), "Prices")])]
        request = "what's the price id of the new seat plan in stripe test mode?"
        final = "The new seat plan's monthly price is the one with lookup key `seat_pro_monthly` (first in the list); it's active."
        return Built(request, final, steps, 1, None, 0), value, "Which Stripe price id belongs to the new seat plan?"
    if kind == "sentry":
        value = "TSR-PAYMENTS-" + "".join(rng.choices(B36, k=4))
        rows = [f"| TSR-PAYMENTS-{''.join(rng.choices(B36, k=4))} | {t:<44} | {rng.randint(1, 90):>6} |"
                for t in rng.sample(("TimeoutError: upstream bank api", "P2002 unique constraint on idempotencyKey",
                                     "RangeError: Invalid time value", "Error: webhook signature mismatch",
                                     "TypeError: amount.toFixed is not a function", "Error: bank api returned 429",
                                     "TimeoutError: ledger lock wait", "P2025 record to update not found",
                                     "Error: pdf render exceeded 30s", "TypeError: currency is undefined",
                                     "ZodError: expected number, received string"), rng.randint(7, 11))]
        rows.insert(0, f"| {value} | TypeError: settlement batch has no period      | {rng.randint(30, 90):>6} |")
        out = "\n".join(["+-------------------+----------------------------------------------+--------+",
                         "| Issue             | Title                                        | Events |",
                         "+-------------------+----------------------------------------------+--------+"] + rows +
                        ["+-------------------+----------------------------------------------+--------+"])
        releases = "\n".join(["+---------------------+----------------------+--------------+"] + [
            f"| api@1.{rng.randint(20, 80)}.{rng.randint(0, 9):<14} | {rng.randint(1, 9)} hours ago          | {rng.randint(0, 900):>12} |"
            for _ in range(rng.randint(10, 16))] + ["+---------------------+----------------------+--------------+"])
        steps = [("", [_bash("sentry-cli releases list --project payments-api", releases, "Releases")]),
                 ("Listing unresolved issues.", [_bash("sentry-cli issues list --project payments-api --query is:unresolved", out, "Issues")])]
        request = "anything new in sentry for the payments api since the deploy?"
        final = "One new issue since the deploy, a TypeError in the settlement batch job (top of the list); the rest are old and known."
        return Built(request, final, steps, 1, None, 0), value, "Which Sentry issue appeared after the payments deploy?"
    slug = names.slug(names.flags)
    value = f"payments.{slug}-v{rng.randint(2, 4)}"
    flags = [{"key": k, "enabled": e, "rollout": r} for k, e, r in (("web.new-sidebar", True, 100), ("web.command-palette", True, 50),
                                                                     ("api.strict-cors", False, 0), ("web.dark-mode-auto", True, 100),
                                                                     ("web.new-onboarding", False, 10), ("web.inline-comments", True, 100),
                                                                     ("api.rate-limit-v2", True, 100), ("web.search-v3", False, 0),
                                                                     ("web.team-switcher", True, 100), ("api.audit-export", False, 0),
                                                                     ("web.kbd-shortcuts", True, 25), ("web.file-preview", True, 100))]
    flags.insert(rng.randrange(len(flags)), {"key": value, "enabled": True, "rollout": 0, "teams": ["camille-dev"]})
    steps = [("", [_bash("docker compose logs api --tail 40", _docker_logs(rng, ctx), "Logs")]),
             ("Asking the api for its flags.", [_bash("curl -s localhost:3001/internal/flags | jq", json.dumps(flags, indent=2), "Flags")])]
    request = "which flag gates the new payments thing? i forgot the key"
    final = "It's the payments flag with the version suffix; it's on only for your dev team."
    return Built(request, final, steps, 1, None, 0), value, "Which feature flag key gates the new payments feature?"


ID_USER_KINDS = ("sentry", "pr", "sha", "flag", "price", "ticket", "request", "deploy")


def _identifier_user(rng: random.Random, names: _Names, kind: str) -> tuple[str, str, Step | None, str]:
    """An id in her own words: (value, her words, the agent's first call about it, query)."""
    if kind == "sentry":
        v = "TSR-PAYMENTS-" + "".join(rng.choices(B36, k=4))
        lead: Step | None = ("Pulling the issue.", [_bash(f"sentry-cli issues list --project payments-api --query {v}",
                                                          f"| {v} | TypeError: payout has no bank account | 212 |", "Issue")])
        return v, rng.choice((f"sentry {v} is back since the deploy", f"keep an eye on {v}, it's the payouts crash")), lead, \
            "Which Sentry issue did she say came back after the deploy?"
    if kind == "pr":
        num = names.number(1000, 2999)
        v = f"tisserand/app/pull/{num}"
        lead = ("", [_bash(f"gh pr view {num} --json title,state,url", json.dumps(
            {"title": "feat: settlement batches", "state": "OPEN", "url": f"https://github.com/{v}"}, indent=2), "PR")])
        return v, f"heads up, karim's github.com/{v} touches the same files, rebase on it when it lands", lead, \
            "Which pull request must the work be rebased on?"
    if kind == "sha":
        v = _hex(rng, 10)
        lead = ("", [_bash(f"git revert --no-edit {v}", f"[camille/revert {_hex(rng, 7)}] Revert \"fix(dunning): reminder "
                                                        "template\"\n 3 files changed, 12 insertions(+), 31 deletions(-)", "Revert")])
        return v, rng.choice((f"revert {v} pls, it broke the dunning emails", f"can u revert {v}? reminders are broken")), \
            lead, "Which commit did she ask to revert?"
    if kind == "flag":
        v = f"payments.{names.slug(names.flags)}-v{rng.randint(2, 4)}"
        lead = ("", [_bash(f"curl -s -X PATCH localhost:3001/internal/flags/{v} -d '{{\"enabled\": true}}' | jq",
                           json.dumps({"key": v, "enabled": True, "teams": ["camille-dev"]}, indent=2), "Flip")])
        return v, f"flip {v} on for my team in dev", lead, "Which feature flag did she ask to turn on in dev?"
    if kind == "price":
        v = f"price_1{_alnum(rng, 23)}"
        return v, f"the new seat plan uses {v} in test mode, put it in the seed", None, \
            "Which Stripe price id does she say the new seat plan uses?"
    if kind == "ticket":
        v = f"PAY-{names.number(1000, 9999)}"
        return v, rng.choice((f"this is all for {v} btw, mention it in the PR", f"c'est pour {v}, mets-le dans la PR")), \
            None, "Which ticket is the work for?"
    if kind == "request":
        v = f"req_{_alnum(rng, 14)}"
        lines = [json.dumps({"level": 50, "reqId": v, "req": {"method": "POST", "url": "/payouts/batch"},
                             "err": {"type": "PrismaClientKnownRequestError", "code": "P2034"}, "msg": "request errored"})]
        lead = ("Searching the api logs for it.", [_bash(f"docker compose logs api | grep {v}", "\n".join(lines), "Logs")])
        return v, f"the failing call from the customer was {v}, find it in the logs", lead, \
            "Which request id did she ask to trace in the logs?"
    v = f"dpl_{_alnum(rng, 24)}"
    return v, f"QA signed off on {v}, that's the one we promote", None, "Which deployment did QA sign off?"


# --- planting -------------------------------------------------------------------------------------------------------

@dataclass
class Item:
    """Something to plant: her words (user side) or a tool-side episode part, aimed at message ``target``."""

    kind: str  # the Fact kind; "" for what a correction or a revised decision replaces
    target: int
    value: str
    query: str = ""
    piece: str = ""  # her words holding the value
    later: bool = False  # her words come in a later paragraph, after an unrelated request
    ack: str = ""  # what the agent says first about it
    lead: Step | None = None  # the agent's first call about it
    built: Built | None = None  # tool side
    stale_of: Item | None = None  # the earlier item this one corrects or revises
    doc: bool = False
    index: int | None = None
    resolved: int | None = None


def _spread(rng: random.Random, count: int, lo: int, hi: int, n: int, a: float = 0.0, b: float = 1.0) -> list[int]:
    """``count`` message indexes between ``lo`` and ``hi``, evenly over the session's thirds (shares ``a`` to ``b``)."""
    n3 = n / 3
    out = []
    for i in range(count):
        f = a + (b - a) * (i + rng.uniform(0.15, 0.85)) / count
        third = min(2, int(f * 3))
        start, end = (lo, n3) if third == 0 else (n3, 2 * n3) if third == 1 else (2 * n3, hi)
        out.append(int(start + (end - start) * (f * 3 - third)))
    rng.shuffle(out)
    return out


def _cycle(rng: random.Random, pool: tuple[str, ...], k: int) -> list[str]:
    out: list[str] = []
    while len(out) < k:
        out += rng.sample(pool, len(pool))
    return out[:k]


DOC_INTROS = ("ok we finally wrote down how we work. this goes in as CLAUDE.md, follow it from now on:",
              "conventions doc, adopted as of today. follow it pls:",
              "voilà nos conventions, à suivre à partir de maintenant :")


def _plant(rng: random.Random, n: int, k: int, lo: int, hi: int) -> tuple[list[Item], list[Item]]:
    names = _Names(rng)
    span = hi - lo
    users: list[Item] = []
    tools: list[Item] = []

    docs = 0 if k < 2 else (2 if n >= 1500 and k >= 4 else 1)
    shapes: dict[str, list[tuple[str, str, Draw, str]]] = {}
    for t in INSTRUCTIONS:
        shapes.setdefault(t[0], []).append(t)
    for group in shapes.values():
        rng.shuffle(group)
    chosen: list[tuple[str, str, Draw, str]] = []
    while len(chosen) < k - docs:
        for shape in ("casual", "french", "reason", "profile", "indirect"):
            if shapes[shape] and len(chosen) < k - docs:
                chosen.append(shapes[shape].pop())
    targets = _spread(rng, k, lo, hi, n)
    for i, (_shape, words, draw, query) in enumerate(chosen):
        v = draw(rng)
        users.append(Item("instruction", targets[i], v, query, piece=words.format(v=v), later=i % 3 == 1,
                          ack=rng.choice(INSTRUCTION_ACKS).format(v=v)))
    documents = [DOC_A, DOC_B]
    rng.shuffle(documents)
    for j, (v, rule, query) in enumerate(rng.sample(DOC_RULES, docs)):
        text = rng.choice(DOC_INTROS) + "\n\n" + _conventions(rng, documents[j], rule)
        users.append(Item("instruction", targets[len(chosen) + j], v, query, piece=text, doc=True,
                          ack="Understood, I'll follow these conventions from now on."))

    fixes = _spread(rng, k, lo, hi, n, 0.2, 1.0)
    for i, (draw2, say, fix, query) in enumerate(rng.sample(CORRECTIONS, k)):
        old, new = draw2(rng)
        room = fixes[i] - lo
        if i % 2 == 0 and room > 0.36 * span:  # said long before (100+ messages at 400)
            said = lo + int(rng.uniform(0, room - 0.34 * span))
        else:
            said = max(lo, fixes[i] - max(2 * MIN_EPISODE, int(rng.uniform(0.05, 0.15) * span)))
        first = Item("", said, old, piece=say.format(old=old),
                     ack=rng.choice(("Noted.", f"Noted: {old}.", "OK, good to know.")))
        users.append(first)
        users.append(Item("correction", fixes[i], new, query, piece=fix.format(new=new, old=old),
                          ack=rng.choice((f"Got it — {new}.", "Thanks, noted.", "Ah, OK, noted.")), stale_of=first))

    targets = _spread(rng, k, lo, hi, n)
    late = [i for i in range(k) if targets[i] - lo > 0.25 * span]
    revised = set(rng.sample(late, min(len(late), 0 if k < 2 else max(1, k // 3))))
    for i, (a, b, query) in enumerate(rng.sample(DECISIONS, k)):
        if rng.random() < 0.5:
            a, b = b, a
        person = rng.choice(PEOPLE)
        if i in revised:
            room = targets[i] - lo
            old = Item("", targets[i] - int(rng.uniform(min(room, max(2 * MIN_EPISODE, 0.08 * span)), min(0.4 * span, room))), a,
                       piece=rng.choice(DECIDE).format(v=a, person=person), ack=rng.choice(DECISION_ACKS).format(v=a))
            users.append(old)
            users.append(Item("decision", targets[i], b, query, piece=rng.choice(REVISE).format(
                v=b, old=a, why=rng.choice(WHY)), ack=rng.choice(DECISION_ACKS).format(v=b), stale_of=old))
        else:
            users.append(Item("decision", targets[i], a, query, piece=rng.choice(DECIDE).format(v=a, person=person),
                              ack=rng.choice(DECISION_ACKS).format(v=a)))

    targets = _spread(rng, k, lo, hi, n)
    shapes_cycle = _cycle(rng, PLAN_SHAPES, k)
    for i, (steps, which) in enumerate(rng.sample(PLANS, k)):
        text = _plan_text(rng, steps, shapes_cycle[i])
        lead: Step | None = None
        if rng.random() < 0.5:
            text += "\n\n" + rng.choice(("don't start yet, that's for next week", "pas maintenant, c'est pour jeudi",
                                         "just so you know where we're going, nothing to do yet"))
        else:
            todos = [{"content": s, "status": "in_progress" if j == 0 else "pending"} for j, s in enumerate(steps)]
            lead = ("Setting up the plan.", [("TodoWrite", _args(todos=todos), TODO_DONE)])
        users.append(Item("plan", targets[i], steps[which], f"What is step {which + 1} of her plan that starts with "
                          f"'{steps[0][:24]}'?" if which else f"What is the first step of her plan ({len(steps)} steps)?",
                          piece=text, lead=lead, ack="" if lead else "OK, noted the plan."))

    ku = (k + 1) // 2
    targets = _spread(rng, k, lo, hi, n)
    for i, kind in enumerate(_cycle(rng, ID_USER_KINDS, ku)):
        v, piece, lead, query = _identifier_user(rng, names, kind)
        users.append(Item("identifier", targets[i], v, query, piece=piece, lead=lead, ack="" if lead else "Noted."))
    for i, kind in enumerate(_cycle(rng, ID_TOOL_KINDS, k - ku)):
        built, v, query = _identifier_tool(rng, names, kind)
        tools.append(Item("identifier", targets[ku + i], v, query, built=built))

    for family in ("error", "file", "finding"):
        targets = _spread(rng, k, lo, hi, n)
        kinds = _cycle(rng, ERROR_KINDS if family == "error" else FINDING_KINDS, k)
        for i in range(k):
            if family == "error":
                built, v, query = _error(rng, names, kinds[i], resolved=i % 3 != 1)
            elif family == "file":
                built, v, query = _file(rng, names)
            else:
                built, v, query = _finding(rng, names, kinds[i])
            tools.append(Item(family, targets[i], v, query, built=built))
    return users, tools


# --- assembling the session -------------------------------------------------------------------------------------------

SYSTEM = (
    "You are an autonomous coding agent working in the tisserand monorepo at " + HOME + " (pnpm workspaces: "
    "apps/web is a Next.js 14 app router app, apps/api a Fastify 4 API, packages/ui the shared React component "
    "library with Storybook, packages/db the Prisma schema and migrations for Postgres 16; vitest, Testing Library, "
    "Playwright, eslint 9 flat config, TypeScript 5 in strict mode).\n\n"
    "Tools: Read (a file, with line numbers), Edit (exact string replacement in a file), Write (create or overwrite a "
    "file), Bash (a shell command in the repo root), Grep (ripgrep over the repo), Glob (file patterns), TodoWrite "
    "(your task list), WebFetch (a URL and a question about it), WebSearch (a web query), Task (a sub-agent for "
    "broad searches; it cannot edit).\n\n"
    "Work autonomously: investigate, change, verify with the relevant checks (typecheck, lint, unit tests, e2e "
    "where it matters), then answer with a short summary of what you did and what is left. Read files before "
    "editing them. Never commit or push unless asked. Ask only when a decision is genuinely hers to make.")


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.messages: list[Message] = [{"role": "system", "content": SYSTEM}]
        self.used: set[str] = set()
        self.pasted: list[tuple[int, str]] = []

    def user(self, text: str) -> int:
        self.messages.append({"role": "user", "content": text})
        return len(self.messages) - 1

    def step(self, text: str, calls: list[Call]) -> int:
        """An assistant message with its calls, answered at once; returns the index of the first result."""
        tool_calls = [{"id": "call_" + _alnum(self.rng, 24), "type": "function",
                       "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}
                      for name, args, _out in calls]
        self.messages.append({"role": "assistant", "content": text or None, "tool_calls": tool_calls})
        first = len(self.messages)
        for (name, _a, out), call in zip(calls, tool_calls):
            self.used.add(name)
            self.messages.append({"role": "tool", "tool_call_id": call["id"], "name": name, "content": out})
        return first

    def answer(self, text: str) -> None:
        self.messages.append({"role": "assistant", "content": text})


def _request(rng: random.Random, ctx: dict[str, Any]) -> tuple[str, str]:
    """A one-off request in her voice, and the answer the loop ends with."""
    req, fin = rng.choice(REQUESTS)
    text = rng.choice(CHAT_OPENERS) + req.format(**ctx) + rng.choice(CHAT_CLOSERS)
    if rng.random() < 0.2:
        text = _typo(rng, text)
    return text, fin.format(**ctx)


def _compose(rng: random.Random, items: list[Item], request: str) -> str:
    head = "\n".join(it.piece for it in items if not it.later and not it.doc)
    tail = "\n\n".join(it.piece for it in items if it.later and not it.doc)
    text = head + rng.choice(("\n\n", "\n")) + request if head else request
    if tail:
        text += "\n\n" + tail
    for it in items:
        if it.doc:
            text = it.piece + "\n\n" + rng.choice(("anyway, first: ", "then: ", "")) + text
    return text


def _episode(b: _Builder, rng: random.Random, length: int, users: list[Item], tools: list[Item],
             paste: bool, must: list[str]) -> None:
    ctx = _ctx(rng)
    pasted = ""
    if tools:
        assert all(t.built for t in tools)
        request = rng.choice(CHAT_OPENERS) + " — and ".join(t.built.request for t in tools if t.built) + rng.choice(CHAT_CLOSERS)
        final = "\n\n".join(t.built.final for t in tools if t.built)
    elif paste:
        intro, pasted, final = PASTES[len(b.pasted) % len(PASTES)](rng, ctx)
        request = intro + "\n\n" + pasted
    else:
        request, final = _request(rng, ctx)
    at = b.user(_compose(rng, users, request) if users else request)
    if pasted:
        b.pasted.append((at, pasted))
    for it in users:
        it.index = at
    lead = next((it.lead for it in users if it.lead), None)
    ack = " ".join(dict.fromkeys(it.ack for it in users if it.ack))
    groups = [(it, list(it.built.steps)) for it in tools if it.built]
    fixed = sum(1 + len(calls) for _it, steps in groups for _t, calls in steps)
    calls_so_far = sum(len(calls) for _it, steps in groups for _t, calls in steps) + (len(lead[1]) if lead else 0)
    routine = length - 2 - fixed - (1 + len(lead[1]) if lead else 0)
    if routine == 1:  # one message too many for a routine step: one more parallel call where it harms nothing
        if groups:
            it, steps = groups[0]
            pad = it.built.pad if it.built else 0
            text, calls = steps[pad]
            steps[pad] = (text, calls + [_read(rng, ctx)])
        elif lead:
            lead = (lead[0], lead[1] + [_read(rng, ctx)])
        routine = 0
    filler = _routine_steps(rng, ctx, routine, max(0, MIN_CALLS - calls_so_far), must, 40 - calls_so_far)
    before = filler[:1] if filler and not lead and rng.random() < 0.3 else []
    plan: list[tuple[Item | None, int, Step]] = [(None, -1, s) for s in before]
    if lead:
        plan.append((None, -1, lead))
    for it, steps in groups:
        plan += [(it, j, s) for j, s in enumerate(steps)]
    plan += [(None, -1, s) for s in filler[len(before):]]
    for n, (it, j, (text, calls)) in enumerate(plan):
        if n == 0 and ack:
            text = (ack + " " + text).strip()
        first = b.step(text, calls)
        if it and it.built:
            if j == it.built.fact:
                it.index = first - 1 if it.kind == "file" else first  # a file is in the call, the rest in results
            if j == it.built.resolved:
                it.resolved = first
    b.answer(final)


def make_session(seed: int, messages: int) -> Session:
    """A session of exactly ``messages`` messages with :func:`per_kind` facts of each kind (60 to about 4600)."""
    n = messages
    k = per_kind(n)
    if n < 60 or k > 16:
        raise ValueError(f"gen_agentloop makes sessions of 60 to about 4600 messages, not {n}")
    rng = random.Random(seed)
    lo, hi = int(LOW * n) + 1, int(HIGH * n)
    floor = -(-3 * n // 100)  # nothing is planted before 3% of the session
    users, tools = _plant(rng, n, k, lo, hi)
    pend_u = sorted(users, key=lambda it: it.target)
    pend_t = sorted(tools, key=lambda it: it.target)
    extra = 3 + 5 * min(1.0, max(0.0, (n - 400) / 2600))
    slack = max(1, int(0.015 * n))  # how far an episode may run past the next planting target
    b = _Builder(rng)
    s = 1
    while s < n - 1:
        remaining = n - 1 - s
        now = s + MIN_EPISODE // 2 if s >= floor else -1  # items aimed at most this far ahead join this loop
        backlog = sum(1 for it in pend_u + pend_t if it.target <= now)
        late = s >= hi - 2 * MIN_EPISODE  # the window is closing: take whatever is pending
        cap = 99 if late and remaining < 4 * MIN_EPISODE else 3 if late or backlog > 4 else 2
        due_u: list[Item] = []
        for it in pend_u:
            if it.target > now and not late:
                break
            if (it.stale_of is not None and it.stale_of.index is None) or (it.doc and due_u):
                continue
            due_u.append(it)
            if it.doc or len(due_u) >= cap:
                break
        due_t = [it for it in pend_t if it.target <= now or late][:cap]
        lead = next((it.lead for it in due_u if it.lead), None)
        lead_msgs = 1 + len(lead[1]) if lead else 0
        fixed = sum(1 + len(calls) for it in due_t if it.built for _t, calls in it.built.steps)
        calls = sum(len(c) for it in due_t if it.built for _t, c in it.built.steps) + (len(lead[1]) if lead else 0)
        need = max(0, MIN_CALLS - calls)
        least = max(MIN_EPISODE, 2 + fixed + lead_msgs + need + (need + 3) // 4)
        length = min(66, MIN_EPISODE + int(rng.expovariate(1 / extra)))
        upcoming = [it.target for it in pend_u + pend_t if it not in due_u and it not in due_t]
        if upcoming:
            length = min(length, max(MIN_EPISODE, min(upcoming) - MIN_EPISODE // 2 - s + slack))
        length = max(length, least)
        if remaining - length < MIN_EPISODE:
            length = remaining
            if length < least:
                due_t = []
                if length < 2 + lead_msgs + 2:
                    due_u = [it for it in due_u if not it.lead]
        paste = not due_u and not due_t and (rng.random() < 0.3 or (s >= hi and len(b.pasted) < 3))
        must = [t for t in TOOLS if t not in b.used] if s >= hi else []  # every tool gets used
        _episode(b, rng, length, due_u, due_t, paste, must)
        pend_u = [it for it in pend_u if it.index is None]
        pend_t = [it for it in pend_t if it.index is None]
        s += length
    ctx = _ctx(rng)
    b.user(_request(rng, ctx)[0])
    if pend_u or pend_t:
        raise ValueError(f"{n} messages are too few to plant {per_kind(n)} facts of each kind")
    facts = []
    for it in users + tools:
        if not it.kind or it.index is None:
            continue
        old = it.stale_of
        facts.append(Fact(it.kind, it.value, it.index, it.query, old.value if old else None,
                          old.index if old else None, it.resolved))
        assert it.value in text_of(b.messages[it.index]), it.value
    facts.sort(key=lambda f: (f.index, KINDS.index(f.kind)))
    return Session(messages=b.messages, facts=facts, seed=seed, pasted=b.pasted)
