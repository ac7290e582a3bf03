#!/usr/bin/env bash
# Installs the real Claude Code and Codex CLIs from the npm registry into one folder, once, and prints
# the environment that runs them (tests/test_gateway_agents_e2e.py drives them through `serve`).
#
#   eval "$(.ci/agents-env.sh)"     # installs on first use (~250 MB), then instant
#   claude --version; codex --version
#
# Folder: $AGENTS_E2E_DIR, default ~/.cache/agents-e2e. Versions: CLAUDE_CODE_VERSION, CODEX_VERSION.
# Node 24 comes from .ci/openclaw-env.sh (the machine's node may be older). Each CLI ships its binary
# as a platform package (an optional dependency), so nothing is downloaded when it runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir=${AGENTS_E2E_DIR:-$HOME/.cache/agents-e2e}
claude_version=${CLAUDE_CODE_VERSION:-2.1.332}
codex_version=${CODEX_VERSION:-0.171.0}
eval "$("$here/openclaw-env.sh")"
mkdir -p "$dir/app"
log() { echo "agents-env: $*" >&2; }
installed() { node -p "require('$dir/app/node_modules/$1/package.json').version" 2>/dev/null || true; }

if [[ $(installed @anthropic-ai/claude-code) != "$claude_version" || $(installed @openai/codex) != "$codex_version" ]]; then
  log "installing @anthropic-ai/claude-code@$claude_version and @openai/codex@$codex_version"
  (cd "$dir/app" && { [[ -f package.json ]] || echo '{"name":"agents-e2e","private":true}' > package.json; } \
   && npm install --no-audit --no-fund --cache "$dir/npm-cache" \
        "@anthropic-ai/claude-code@$claude_version" "@openai/codex@$codex_version" >&2)
fi

cat <<ENV
export PATH="$dir/app/node_modules/.bin:$PATH"
export AGENTS_E2E_DIR="$dir"
ENV
