"""Long agent sessions of a Polish e-commerce search team, with planted facts, for the fidelity bench.

    from gen_search import make_session
    session = make_session(seed=1, messages=400)     # about 630k characters
    session = make_session(seed=1, messages=3000)    # about 4.7M characters

A search relevance engineer at Kramik, an online marketplace in Kraków, works for hours with a coding agent
on the search stack: a Rust query-rewriting service (``cargo test`` runs with "test result: FAILED. 41 passed;
1 failed", panics, clippy warnings), an OpenSearch cluster (``_cat`` tables, ``_explain`` trees, analyzers with
the stempel and morfologik Polish stemmers), a TypeScript storefront (Jest), a Python learning-to-rank job
(LightGBM logs, NDCG@10), ClickHouse click logs and an A/B test dashboard. The user writes Polish mixed with
English the way Polish developers chat ("nie, czekaj", "poprawka:", "sorry, pomyliłem się", "ogarnij",
"spoko") and pastes what others wrote: the merchandising brief, legal's note on the Omnibus directive, a
Slack thread with the PM, a supplier's product-feed spec, Jira tickets, a zero-results postmortem, the data
team's mail on GDPR retention of query logs. Their imperatives are not the user's; ``Session.pasted`` lists
every pasted text exactly as it occurs in its message.

``Session.facts`` follow the bench's generator contract (tests/generator_contract.py): each of the eight kinds
``per_kind(messages)`` times between 3% and 88% of the session; a value occurs first in its own message and
only in the 8 messages after it; a correction's old value only in the 12 messages after its own or beside the
correction. Tool outputs carry most of the characters. Same seed and size, same bytes.
"""

from __future__ import annotations

import bisect
import json
import random
from collections.abc import Callable
from typing import Any

from sessiongen import Fact, Message, Session, text_of

KINDS = ("instruction", "correction", "decision", "error", "file", "identifier", "finding", "plan")
TOOLS = ("shell", "read_file", "edit_file", "cargo", "jest", "opensearch", "clickhouse", "ltr_train", "ab_dashboard")
MIN_MESSAGES = 60
AFTER_VALUE = 8  # messages after a fact's own that may repeat its value
STALE_REACH = 12  # messages after a stale value's own that may repeat it
CHARS_PER_MESSAGE = 1575  # 630k characters at 400 messages, 4.7M at 3000


def per_kind(messages: int) -> int:
    """Facts of each kind: 1 at 60 messages, 6 at 400, 9 at 1700, 12 at 3000, one more every 500 beyond."""
    if messages <= 400:
        return max(1, 1 + (5 * (messages - 60) + 170) // 340)
    if messages <= 3000:
        return 6 + (6 * (messages - 400) + 1300) // 2600
    return 12 + (messages - 3000) // 500


# --- vocabulary ----------------------------------------------------------------------------------------------

QUERIES = ("buty do biegania", "kalosze damskie", "lodówka side by side", "telefon samsung a55",
           "krzesło biurowe ergonomiczne", "klocki lego technic", "sukienka na wesele", "odkurzacz bezprzewodowy",
           "opony zimowe 205/55 r16", "karma dla kota sterylizowanego", "rower górski 29", "pralka slim 45 cm",
           "wiertarka udarowa", "kurtka puchowa damska", "słuchawki bezprzewodowe", "ekspres do kawy",
           "fotelik samochodowy isofix", "garnki indukcja", "pościel 160x200", "zabawki dla 3 latka",
           "hulajnoga elektryczna", "plecak szkolny", "ładowarka usb-c 65w", "żółte kalosze", "łóżko piętrowe",
           "szczoteczka soniczna", "kubek termiczny", "namiot 4 osobowy", "mata do jogi", "lampka biurkowa led",
           "kabel hdmi 2.1", "smartwatch damski", "żelazko parowe", "koszulka piłkarska", "zolte kalosze",
           "lozko pietrowe", "sluchawki jbl", "buty zimowe dzieciece", "etui iphone 15", "perfumy damskie")
FOLD = str.maketrans("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ", "acelnoszzACELNOSZZ")

PRODUCTS = (
    ("Obuwie > Damskie > Kalosze", ("Kalosze damskie", "Buty do biegania", "Trampki", "Botki skórzane", "Klapki basenowe"),
     ("Hunter", "Adidas", "Nike", "Puma", "Lasocki", "Wojas"), ("38", "42", "czarne", "żółte", "białe", "44")),
    ("Elektronika > Telefony", ("Smartfon", "Słuchawki bezprzewodowe", "Ładowarka USB-C 65W", "Smartwatch", "Tablet"),
     ("Samsung", "Xiaomi", "Apple", "Sony", "JBL", "Lenovo"), ("128 GB", "czarny", "ANC", "2 m", "Wi-Fi", "5G")),
    ("AGD > Duże AGD", ("Lodówka side by side", "Pralka slim 45 cm", "Odkurzacz bezprzewodowy", "Ekspres ciśnieniowy",
                        "Zmywarka 60 cm"),
     ("Bosch", "Samsung", "Amica", "Philips", "Tefal", "Electrolux"), ("A++", "inox", "1400 obr.", "2400 W", "No Frost")),
    ("Dom > Meble", ("Krzesło biurowe", "Łóżko piętrowe", "Półka na książki", "Sofa rozkładana", "Biurko regulowane"),
     ("Black Red White", "Vox", "Agata", "Forte", "Diuna"), ("szare", "dąb sonoma", "120 cm", "białe", "welur")),
    ("Dziecko > Zabawki", ("Klocki", "Lalka", "Gra planszowa", "Hulajnoga dziecięca", "Puzzle 1000 el."),
     ("Lego", "Trefl", "Hasbro", "Mattel", "Smoby", "Cobi"), ("Technic", "3+", "6+", "rodzinna", "różowa", "1:16")),
    ("Sport > Rowery", ("Rower górski 29", "Mata do jogi", "Namiot 4-osobowy", "Kettlebell 16 kg", "Kask rowerowy"),
     ("Kross", "Quechua", "Spokey", "Hi-Tec", "Romet"), ("M", "L", "zielony", "aluminium", "XL", "czarny")),
    ("Dom i ogród > Kuchnia", ("Garnki indukcja", "Pościel bawełniana 160x200", "Kubek termiczny", "Wiertarka udarowa",
                               "Lampka biurkowa LED"),
     ("Tefal", "Bosch", "Makita", "Contigo", "Philips", "Gardena"), ("zestaw 8 el.", "szara", "470 ml", "18 V")),
    ("Zwierzęta > Kot", ("Karma dla kota sterylizowanego", "Żwirek silikonowy", "Legowisko dla psa", "Drapak"),
     ("Purina", "Royal Canin", "Brit", "Trixie"), ("10 kg", "4 kg", "L", "90 cm")),
)
BRANDS = ("samsung", "lego", "bosch", "xiaomi", "adidas", "nike", "philips", "tefal", "hunter", "apple", "sony",
          "amica", "puma", "jbl", "makita", "kross")
SYN_PAIRS = (("kalosze", "gumiaki"), ("buty", "obuwie"), ("telefon", "smartfon"), ("lodówka", "chłodziarka"),
             ("kanapa", "sofa"), ("bluza", "sweter"), ("laptop", "notebook"), ("hulajnoga", "skuter"),
             ("czajnik", "warnik"), ("trampki", "tenisówki"), ("kurtka", "parka"), ("pościel", "komplet pościeli"),
             ("plecak", "tornister"), ("krzesło", "fotel"), ("odkurzacz", "odkurzacz pionowy"), ("żwirek", "podłoże"))
FEATURES = ("bm25_name", "bm25_brand", "bm25_category", "ctr_7d", "ctr_30d", "add2cart_30d", "price_rank", "in_stock",
            "seller_score", "margin_bucket", "days_since_listing", "review_count", "review_avg", "image_count",
            "query_len", "cat_match", "brand_match", "popularity_90d", "return_rate", "delivery_days")

RS_MODS = ("synonyms", "diacritics", "units", "spelling", "category_intent", "brand", "numbers", "stopwords")
RS_VERBS = ("expands", "folds", "parses", "keeps", "drops", "detects", "normalizes", "rejects", "splits", "maps")
RS_OBJS = ("buty_to_obuwie", "zolw", "tire_size", "model_number", "brand_tokens", "short_tokens", "gb_tb", "ranges",
           "uppercase_l", "hyphenated", "plural_forms", "cm_dimensions", "watts", "empty_query", "emoji",
           "mixed_case_brand", "samsung_alias", "lego_sets", "kids_sizes", "iso_units")
RS_TESTS = tuple(f"rewrite::{m}::tests::{v}_{o}" for m in RS_MODS for v in RS_VERBS for o in RS_OBJS)
RS_METHODS = ("fold_diacritics_ascii", "expand_with_limit", "stem_all", "normalize_units_pl", "split_model_number",
              "lookup_brand_alias", "to_query_plan", "dedup_synonyms")
RS_TYPES = ("Token", "RewriteCtx", "SynonymTable", "QueryPlan")

JEST_SUITES = (
    ("SearchBox", ("renders input with placeholder", "debounces typing", "opens suggestions on focus",
                   "clears query on escape", "submits on enter", "keeps query after back navigation")),
    ("Suggestions", ("renders suggestions", "highlights matched prefix", "navigates with arrow keys", "hides on blur",
                     "shows category hints", "limits to 8 items")),
    ("ResultsGrid", ("renders 48 tiles per page", "shows skeletons while loading", "keeps scroll position",
                     "renders sponsored badge", "lazy loads images")),
    ("Facets", ("renders category counts", "collapses long facet lists", "applies price range", "resets filters",
                "keeps selected brand on top")),
    ("PriceTag", ("formats price in PLN", "shows crossed-out price with 30-day low",
                  "hides promo badge without reference price", "renders unit price per kg")),
    ("ZeroResults", ("suggests spelling fix", "shows popular categories", "tracks zero-result event")),
)

RS_FILES = ("query-rewriter/src/lib.rs", "query-rewriter/src/server.rs", "query-rewriter/src/rewrite/mod.rs",
            "query-rewriter/src/rewrite/synonyms.rs", "query-rewriter/src/rewrite/diacritics.rs",
            "query-rewriter/src/rewrite/units.rs", "query-rewriter/src/rewrite/spelling.rs",
            "query-rewriter/src/rewrite/category_intent.rs", "query-rewriter/src/opensearch/client.rs",
            "query-rewriter/src/opensearch/query_builder.rs")
TS_FILES = ("storefront/src/components/SearchBox/SearchBox.tsx", "storefront/src/components/Suggestions/Suggestions.tsx",
            "storefront/src/components/PriceTag/PriceTag.tsx", "storefront/src/components/Facets/Facets.tsx",
            "storefront/src/hooks/useSearch.ts", "storefront/src/lib/search/query.ts",
            "storefront/src/components/PriceTag/PriceTag.test.tsx", "storefront/src/components/SearchBox/SearchBox.test.tsx")
PY_FILES = ("ltr/train.py", "ltr/eval.py", "ltr/features/clicks.py", "ltr/features/text.py")
OTHER_FILES = ("ltr/configs/lambdamart_pl.yaml", "query-rewriter/config/prod.toml",
               "opensearch/templates/products-pl.json", "opensearch/analysis/synonyms_pl.txt",
               "analytics/queries/zero_results_daily.sql", "analytics/queries/ctr_by_position.sql")

PEOPLE = ("Ola", "Kasia", "Tomek", "Marek", "Agnieszka", "Piotrek", "Magda", "Bartek", "Ewa", "Kuba")


class _Lines(list):  # type: ignore[type-arg]
    """Lines of a tool's output with their running length (joined by newlines)."""

    def __init__(self, items: Any = ()) -> None:
        super().__init__(items)
        self.chars = sum(len(x) + 1 for x in self)

    def append(self, x: str) -> None:
        super().append(x)
        self.chars += len(x) + 1

    def insert(self, i: Any, x: str) -> None:
        super().insert(i, x)
        self.chars += len(x) + 1

    def __iadd__(self, xs: Any) -> _Lines:
        xs = list(xs)
        super().__iadd__(xs)
        self.chars += sum(len(x) + 1 for x in xs)
        return self


def _fill(template: str, **kw: Any) -> str:
    for key, val in kw.items():
        template = template.replace(f"«{key}»", str(val))
    return template


def _pj(obj: Any) -> str:
    """OpenSearch's ?pretty JSON."""
    return json.dumps(obj, indent=2, ensure_ascii=False).replace('": ', '" : ')


def _slug(text: str) -> str:
    folded = text.translate(FOLD).lower()
    return "_".join("".join(c if c.isalnum() else " " for c in folded).split())


def _ch_table(cols: list[str], rows: list[list[str]], right: set[int]) -> str:
    """ClickHouse PrettyCompact."""
    widths = [max([len(c)] + [len(row[i]) for row in rows]) for i, c in enumerate(cols)]
    head = "┌" + "┬".join("─" + c + "─" * (w - len(c) + 1) for c, w in zip(cols, widths)) + "┐"
    body = ["│" + "│".join(" " + (v.rjust(w) if i in right else v.ljust(w)) + " "
                          for i, (v, w) in enumerate(zip(row, widths))) + "│" for row in rows]
    foot = "└" + "┴".join("─" * (w + 2) for w in widths) + "┘"
    return "\n".join([head, *body, foot])


# --- code the agent reads and writes -------------------------------------------------------------------------

RS_SNIPPETS = (
    """pub fn «fn»(tokens: &[Token], ctx: &RewriteCtx) -> Vec<Token> {
    let mut out = Vec::with_capacity(tokens.len() + «n»);
    for tok in tokens {
        if tok.text.chars().count() < ctx.min_token_len {
            out.push(tok.clone());
            continue;
        }
        match ctx.«table».get(tok.text.as_str()) {
            Some(alts) => out.extend(alts.iter().take(ctx.max_expansions).map(|a| Token::synonym(a, tok.pos))),
            None => out.push(tok.clone()),
        }
    }
    out
}""",
    """#[derive(Debug, Clone, Deserialize)]
pub struct «Ty»Config {
    pub enabled: bool,
    pub max_expansions: usize,
    pub min_token_len: usize,
    #[serde(default = "default_«fn»_boost")]
    pub boost: f32,
}

fn default_«fn»_boost() -> f32 {
    «f»
}""",
    """    #[test]
    fn «test»() {
        let ctx = RewriteCtx::for_tests();
        let out = rewrite(&ctx, "«q»");
        assert_eq!(out.terms(), vec!["«t1»", "«t2»"]);
    }""",
    """fn parse_unit(raw: &str) -> Option<Unit> {
    match raw.trim_end_matches('.').to_lowercase().as_str() {
        "cm" | "centymetr" | "centymetrów" => Some(Unit::Cm),
        "gb" | "giga" => Some(Unit::Gb),
        "w" | "wat" | "watów" => Some(Unit::Watt),
        "l" | "litr" | "litrów" => Some(Unit::Litre),
        _ => None,
    }
}""",
    """    pub async fn «fn»(&self, body: &Value) -> Result<SearchResponse, ClientError> {
        let url = format!("{}/{}/_search", self.base_url, self.alias);
        let resp = self
            .http
            .post(&url)
            .timeout(Duration::from_millis(self.timeout_ms))
            .json(body)
            .send()
            .await
            .map_err(ClientError::Transport)?;
        if !resp.status().is_success() {
            warn!(status = %resp.status(), "opensearch returned non-2xx in «fn»");
            return Err(ClientError::Status(resp.status().as_u16()));
        }
        resp.json().await.map_err(ClientError::Decode)
    }""",
    """pub fn «fn»(s: &str) -> Cow<'_, str> {
    if s.is_ascii() {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().map(|c| match c {
        'ą' => 'a', 'ć' => 'c', 'ę' => 'e', 'ł' => 'l', 'ń' => 'n',
        'ó' => 'o', 'ś' => 's', 'ź' | 'ż' => 'z',
        other => other,
    }).collect())
}""",
)
RS_HEADER = """use std::borrow::Cow;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;
use tracing::{debug, warn};

use crate::opensearch::{ClientError, SearchResponse};
use crate::rewrite::{RewriteCtx, Token, Unit};
"""
TS_SNIPPETS = (
    """export function «Comp»({ query, onSelect }: «Comp»Props) {
  const { data, isLoading } = useSearchSuggestions(query, { debounceMs: DEBOUNCE_MS });
  const [active, setActive] = useState(-1);
  if (isLoading) return <Spinner size="sm" />;
  if (!data?.items.length) return null;
  return (
    <ul role="listbox" className={styles.list} onKeyDown={(e) => setActive(nextIndex(e, active, data.items.length))}>
      {data.items.map((item, i) => (
        <li key={item.id} role="option" aria-selected={i === active} onMouseDown={() => onSelect(item)}>
          <Highlight text={item.label} prefix={query} />
        </li>
      ))}
    </ul>
  );
}""",
    """  it('«behavior»', async () => {
    server.use(rest.get('/api/search/suggest', (_req, res, ctx) => res(ctx.json(fixtures.«fx»))));
    render(<«Comp» query="«q»" onSelect={jest.fn()} />);
    expect(await screen.findAllByRole('option')).toHaveLength(«n»);
  });""",
    """export function formatPrice(grosze: number): string {
  return new Intl.NumberFormat('pl-PL', { style: 'currency', currency: 'PLN' }).format(grosze / 100);
}

export function showReferencePrice(p: PriceInfo): boolean {
  return p.promo && p.referencePrice != null && p.referencePrice > p.current;
}""",
    """export function useSearch(params: SearchParams) {
  const key = ['search', params.q, params.page, params.sort, params.filters];
  return useQuery({
    queryKey: key,
    queryFn: () => api.search(params),
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}""",
)
TS_HEADER = """import { useState } from 'react';
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Highlight } from '@/components/Highlight';
import { Spinner } from '@/components/ui/Spinner';
import { api } from '@/lib/api';
import styles from './styles.module.css';
"""
PY_SNIPPETS = (
    '''def «fn»(df: pd.DataFrame, window_days: int = «n») -> pd.Series:
    """Smoothed click-through rate per (query, sku) over the last window."""
    recent = df[df["event_date"] >= df["event_date"].max() - pd.Timedelta(days=window_days)]
    clicks = recent.groupby(["query_norm", "sku"])["clicks"].sum()
    impressions = recent.groupby(["query_norm", "sku"])["impressions"].sum()
    return (clicks + PRIOR_CLICKS) / (impressions + PRIOR_IMPRESSIONS)''',
    '''    model = lgb.train(
        params,
        train_set,
        num_boost_round=cfg.rounds,
        valid_sets=[valid_set],
        callbacks=[lgb.early_stopping(cfg.early_stopping), lgb.log_evaluation(cfg.log_every)],
    )
    log.info("best iteration %d", model.best_iteration)''',
    '''def ndcg_at(k: int, labels: np.ndarray, scores: np.ndarray, groups: np.ndarray) -> float:
    out, start = [], 0
    for size in groups:
        lab, sc = labels[start:start + size], scores[start:start + size]
        order = np.argsort(-sc)[:k]
        gains = (2 ** lab[order] - 1) / np.log2(np.arange(2, len(order) + 2))
        ideal = np.sort(2 ** lab - 1)[::-1][:k] / np.log2(np.arange(2, min(k, size) + 2))
        out.append(gains.sum() / ideal.sum() if ideal.sum() else 0.0)
        start += size
    return float(np.mean(out))''',
    '''def load_judgments(path: str, min_impressions: int = «n») -> pd.DataFrame:
    df = pd.read_parquet(path, columns=JUDGMENT_COLUMNS)
    df = df[df["impressions"] >= min_impressions]
    df["label"] = np.clip(np.round(df["grade"] * 4), 0, 4).astype(int)
    return df.sort_values(["query_id", "position"])''',
)
PY_HEADER = '''"""Learning-to-rank training for products-pl (LightGBM lambdarank)."""

from __future__ import annotations

import logging

import lightgbm as lgb
import numpy as np
import pandas as pd

log = logging.getLogger("ltr")
PRIOR_CLICKS, PRIOR_IMPRESSIONS = 1.0, 20.0
'''

# --- what the user pastes ------------------------------------------------------------------------------------


def _doc_merch(r: random.Random) -> str:
    brands = r.sample(("Samsung", "Lego", "Bosch", "Adidas", "Philips", "Tefal", "Xiaomi", "Hunter"), 3)
    return (f"BRIEF: Black Week 2026 — widoczność w wyszukiwarce\nOd: Merchandising ({r.choice(PEOPLE)} {r.choice(('Nowak', 'Wiśniewska', 'Zając'))})\n"
            f"Do: Search Relevance\n\nCel: +{r.randint(8, 25)}% GMV z wyszukiwarki w tygodniu promocji.\n\n"
            f"1. Please boost the Black Week collection for generic queries (\"telewizor\", \"laptop\", \"buty zimowe\").\n"
            f"2. Marki {', '.join(brands)} mają być w top 3 dla zapytań markowych — proszę to wymusić pinningiem.\n"
            "3. Nie pokazujcie produktów bez stanu na pierwszej stronie wyników.\n"
            "4. Landing pages for categories must show promo items first, sorted by discount.\n"
            "5. Prosimy o raport CTR dla kampanii codziennie o 9:00.\n\nDeadline: przed startem kampanii. Pytania do mnie na Slacku.")


def _doc_omnibus(r: random.Random) -> str:
    return ("Notatka działu prawnego — dyrektywa Omnibus (art. 6a ustawy o informowaniu o cenach)\n\n"
            "W związku z kontrolą UOKiK przypominamy:\n"
            "- Przy każdej informacji o obniżce ceny należy podać najniższą cenę z okresu 30 dni przed wprowadzeniem obniżki.\n"
            "- Nie wolno prezentować „ceny przekreślonej” wyliczonej z innego okresu ani z ceny katalogowej.\n"
            "- Dotyczy to także list wyników wyszukiwania, kafelków i podpowiedzi, jeśli pokazują promocję.\n"
            "- Produkty w sprzedaży krócej niż 30 dni: podajemy najniższą cenę od dnia wprowadzenia.\n\n"
            f"Prosimy o potwierdzenie wdrożenia do {r.randint(5, 28)}.12. Wszelkie wątpliwości proszę kierować do mec. {r.choice(('Kowalczyk', 'Lewandowska', 'Mazur'))}.\n"
            "Dział Prawny")


def _doc_slack(r: random.Random) -> str:
    pm, dev = r.sample(PEOPLE, 2)
    h = r.randint(9, 16)
    return (f"[{h}:{r.randint(10, 29)}] {pm} (PM): hej, czy możemy po prostu przypiąć Samsunga na górę dla \"telefon\"? sales pyta\n"
            f"[{h}:{r.randint(30, 39)}] {dev}: pinning psuje nam eksperyment, wolałbym boost\n"
            f"[{h}:{r.randint(40, 49)}] {pm} (PM): ok, but please make sure it's live before Friday, nie chcę znowu tłumaczyć się zarządowi\n"
            f"[{h}:{r.randint(50, 59)}] {pm} (PM): i dodajcie to do release notes, pls\n"
            f"[{h + 1}:0{r.randint(0, 9)}] {dev}: 👍 wrzucę w ticket")


def _doc_feed(r: random.Random) -> str:
    return (f"Product Feed Specification v{r.randint(2, 4)}.{r.randint(0, 9)} — supplier integration ({r.choice(('ElektroHurt', 'ModaPlus', 'AGD-Dystrybucja'))} sp. z o.o.)\n\n"
            "1. The feed MUST be UTF-8 encoded XML, one <offer> per SKU.\n"
            "2. EAN MUST be sent as a string; leading zeros are significant and must not be stripped.\n"
            "3. <price> is gross PLN with a dot as decimal separator. Do not send prices with currency symbols.\n"
            "4. <category> must use the marketplace taxonomy path, e.g. \"Elektronika > Telefony > Smartfony\".\n"
            "5. Send the full feed daily before 04:00 CET; partial updates every 15 minutes at most.\n"
            "6. Offers missing <ean> or <brand> will be rejected and reported in the import log.")


def _doc_jira(r: random.Random) -> str:
    q = r.choice(("zolte kalosze", "lozko pietrowe", "sluchawki jbl", "buty zimowe dzieciece"))
    return (f"SRCH-{r.randint(1000, 2999)}: Brak wyników dla \"{q}\" (bez polskich znaków)\nType: Bug   Priority: High   Reporter: {r.choice(PEOPLE)} (Customer Care)\n\n"
            f"Opis: Klienci wpisują \"{q}\" i dostają zero wyników, z ogonkami działa. Zgłoszeń w tym tygodniu: {r.randint(12, 90)}.\n\n"
            "Acceptance criteria:\n- Queries without Polish diacritics must return the same top 10 as with diacritics.\n"
            "- Add a regression test for the reported query.\n- Do not change ranking for queries with diacritics.\n\n"
            "Please fix before the next release train.")


def _doc_postmortem(r: random.Random) -> str:
    d = r.randint(10, 28)
    return (f"Postmortem: zero-results spike on 2026-10-{d}\n\nImpact: {r.randint(6, 30)}% of searches returned no results for "
            f"{r.randint(25, 70)} minutes; estimated lost GMV {r.randint(80, 400)}k PLN.\n\nTimeline:\n"
            f"- 14:02 synonyms_pl.txt deployed with a trailing comma on line {r.randint(100, 900)}\n"
            "- 14:05 analyzer reload, every query through the synonym graph filter fails to parse\n"
            "- 14:41 rollback of the synonym file\n\nRoot cause: no validation of synonym files in CI.\n\n"
            "Action items:\n- [ ] Add a CI check that loads synonym files through _analyze before deploy.\n"
            "- [ ] Alert on zero-results rate per 10-minute window.\n- [ ] Never hot-reload analyzers during peak hours.\n"
            "- [ ] Document the rollback in the runbook.")


def _doc_gdpr(r: random.Random, days: int) -> str:
    return (f"Temat: Retencja logów zapytań (RODO)\nOd: Data Team <data@kramik.pl>\n\nCześć,\n\n"
            f"po przeglądzie z IOD: surowe zapytania wyszukiwarki powiązane z user_id lub session_id to dane osobowe. "
            f"Retencja surowych logów nie może przekraczać {days} dni; po tym czasie należy je usunąć albo zastąpić "
            "hashem zapytania bez identyfikatorów.\n\nProsimy o:\n- ustawienie TTL na tabelach z surowymi zapytaniami,\n"
            "- usunięcie kopii w prywatnych bucketach S3,\n- potwierdzenie do końca miesiąca.\n\nPozdrawiamy,\nData Team")


def _doc_runbook(r: random.Random) -> str:
    return ("Runbook: reindex products-pl (Search Platform)\n\n1. Create the new index from template products-pl with number_of_replicas: 0.\n"
            "2. Run _reindex with slices=auto and wait_for_completion=false; note the task id.\n"
            "3. Watch _tasks until done; do not touch the read alias while the task runs.\n"
            "4. Set number_of_replicas back and wait for green.\n5. Swap the alias atomically in one _aliases call.\n"
            f"6. Keep the old index for {r.randint(2, 7)} days, then delete it.\n\nIf anything fails, page #search-oncall.")


FILLER_DOCS: tuple[tuple[str, Callable[[random.Random], str], str], ...] = (
    ("patrz co przyszło od merchu:", _doc_merch,
     "To brief merchu, nie nasza decyzja — niczego nie wdrażam bez Ciebie. Dla wyszukiwarki: pinning marek kłóci się z trwającymi "
     "eksperymentami, a ukrywanie produktów bez stanu to zmiana w filtrze, nie w rankingu."),
    ("wklejam wątek ze Slacka z PM-ką:", _doc_slack,
     "PM-ka chce pinningu Samsunga przed piątkiem. Nic nie ruszam bez Twojej decyzji; wariant, który nie psuje eksperymentu, to boost "
     "marki dla zapytania 'telefon' w rewriterze."),
    ("ticket od CC, zerknij:", _doc_jira,
     "Ticket z CC pasuje do tego, że asciifolding jest tylko na name, a nie na category_path. Kryteria akceptacji są ich — nic nie "
     "zmieniam, dopóki nie zdecydujesz."),
    ("runbook od platformy, dla kontekstu:", _doc_runbook,
     "Przyjąłem jako kontekst — to procedura platformy, niczego z niej nie odpalam."),
    ("here's the feed spec from the new supplier:", _doc_feed,
     "That's the supplier's spec, so nothing to do on our side unless you say so. The EAN-as-string point is the one that touches our mapping."),
    ("legal przysłał to dziś rano:", _doc_omnibus,
     "Notatka legalu; to ich wymagania, bez Twojej decyzji nic nie zmieniam. Dla wyszukiwarki dotyczy to kafelków i podpowiedzi z promocją."),
    ("postmortem z października, żebyś miał kontekst:", _doc_postmortem,
     "Akcje z postmortemu są platformy; dla nas istotna jest walidacja plików synonimów przez _analyze przed deployem."),
)


# --- the session builder -------------------------------------------------------------------------------------

SYSTEM = ("You are a coding agent pairing with Kramik's search relevance team (Kraków). Repositories: query-rewriter "
          "(Rust, query rewriting in front of OpenSearch), storefront (TypeScript/Next.js, search UI), ltr (Python, "
          "LightGBM learning-to-rank), analytics (ClickHouse SQL over click logs). Tools: shell, read_file, edit_file, "
          "cargo, jest, opensearch (REST calls against the kramik-search-krk cluster), clickhouse (read-only SQL on the "
          "clicks database), ltr_train (training and offline evaluation), ab_dashboard (experiment results). Answer in the "
          "language the user writes in; the team mixes Polish and English. Be precise about numbers; quote file paths "
          "with line numbers. Do not change production without being asked.")
CLOSINGS = ("ok, na dziś starczy — jutro rano wracamy do tego, zostaw mi krótką listę co zostało",
            "dobra, lecę na daily; podsumuj proszę w trzech punktach gdzie jesteśmy",
            "thanks, that's it for today. what's still open?",
            "spoko, dzięki. co byś sprawdził jako następne?")


class _Block:
    __slots__ = ("target", "length", "emit", "seq")

    def __init__(self, target: int, length: int, emit: Callable[[], None], seq: int) -> None:
        self.target, self.length, self.emit, self.seq = target, length, emit, seq


class _Gen:
    def __init__(self, seed: int, messages: int, attempt: int) -> None:
        self.rng = random.Random(f"gen_search/{seed}/{messages}/{attempt}")
        self.m = messages
        self.n = per_kind(messages)
        self.out: list[Message] = []
        self.chars = 0
        self.ncalls = 0
        self.facts: list[Fact] = []
        self.pasted: list[tuple[int, str]] = []
        self.used: list[str] = []
        self.reserved: list[str] = []
        self.reserved_set: set[str] = set()
        self.queries: set[str] = set()
        self.minute0 = self.rng.randint(8 * 60 + 5, 9 * 60 + 20)
        self.last_paste = 0

    # ---- messages -------------------------------------------------------------------------------------------

    def _add(self, message: Message) -> int:
        self.out.append(message)
        self.chars += len(text_of(message))
        return len(self.out) - 1

    def user(self, text: str) -> int:
        return self._add({"role": "user", "content": text})

    def say(self, text: str) -> int:
        return self._add({"role": "assistant", "content": text})

    def act(self, text: str, calls: list[tuple[str, dict[str, Any]]]) -> tuple[int, list[dict[str, Any]]]:
        tcs = []
        for name, args in calls:
            self.ncalls += 1
            tcs.append({"id": f"call_{self.ncalls:04d}{self.rng.getrandbits(40):010x}", "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}})
            if name not in self.used:
                self.used.append(name)
        return self._add({"role": "assistant", "content": text, "tool_calls": tcs}), tcs

    def result(self, call: dict[str, Any], content: str) -> int:
        return self._add({"role": "tool", "tool_call_id": call["id"], "name": call["function"]["name"],
                          "content": content})

    def step(self, text: str, name: str, args: dict[str, Any], run: Callable[[int], str]) -> int:
        """One assistant call answered at once; returns the tool message's index."""
        _, (call,) = self.act(text, [(name, args)])
        return self.result(call, run(self.size()))

    def size(self) -> int:
        """How long the next big tool output should be, to land on CHARS_PER_MESSAGE on average."""
        behind = CHARS_PER_MESSAGE * (len(self.out) + 1) - self.chars
        return int(min(15000, max(700, 3300 + behind * 0.3)))

    # ---- small random things --------------------------------------------------------------------------------

    def hexs(self, n: int) -> str:
        return f"{self.rng.getrandbits(4 * n):0{n}x}"

    def uuid(self) -> str:
        h = self.hexs(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def now(self) -> tuple[int, int, int]:
        t = self.minute0 + int(len(self.out) * 0.45)
        day, rest = divmod(t, 1440)
        return 3 + day, rest // 60, rest % 60

    def clock(self) -> str:
        _, h, mi = self.now()
        return f"{h}:{mi:02d}"

    def stamps(self, count: int, sep: str = "T") -> list[str]:
        day, h, mi = self.now()
        t = (((day * 24 + h) * 60 + mi) * 60 - count * 3 - self.rng.randint(5, 300)) * 1000
        out = []
        for _ in range(count):
            t += self.rng.randint(0, 5000)
            d, rest = divmod(t // 1000, 86400)
            out.append(f"2026-11-{d:02d}{sep}{rest // 3600:02d}:{rest // 60 % 60:02d}:{rest % 60:02d}."
                       f"{t % 1000:03d}" + ("Z" if sep == "T" else ""))
        return out

    def f_index(self) -> str:
        return f"products-pl-2026.{self.rng.randint(7, 9):02d}.{self.rng.randint(1, 28):02d}"

    def f_exp(self) -> str:
        return f"EXP-{self.rng.randint(1000, 1999)}"

    def f_sku(self) -> str:
        return str(self.rng.randint(10_000_000, 39_999_999))

    def f_node(self) -> str:
        r = self.rng.random()
        if r < 0.7:
            return f"os-krk-data-{self.rng.randint(1, 9):02d}"
        return f"os-krk-{'coord' if r < 0.85 else 'master'}-{self.rng.randint(1, 3):02d}"

    def f_query(self) -> str:
        return self.rng.choice(QUERIES)

    def product(self) -> tuple[str, str, str, str]:
        cat, nouns, brands, attrs = self.rng.choice(PRODUCTS)
        brand = self.rng.choice(brands)
        return f"{self.rng.choice(nouns)} {brand} {self.rng.choice(attrs)}", brand, cat, self.f_sku()

    def fileref(self) -> str:
        return f"{self.rng.choice(RS_FILES + TS_FILES + PY_FILES)}:{self.rng.randint(12, 480)}"

    # ---- tool outputs ---------------------------------------------------------------------------------------

    def out_cargo_test(self, size: int, fail: tuple[str, str] | None = None, filt: str | None = None) -> str:
        """``fail`` = (test name, panic line): the run fails there and stops."""
        r = self.rng
        lines = []
        if r.random() < 0.6:
            lines.append(f"   Compiling query-rewriter v0.14.{r.randint(0, 9)} (/home/dev/kramik/search/query-rewriter)")
        lines.append(f"    Finished `test` profile [unoptimized + debuginfo] target(s) in {r.uniform(2, 70):.2f}s")
        suites = [("unittests src/lib.rs", "query_rewriter"), ("tests/golden_queries.rs", "golden_queries"),
                  ("tests/opensearch_contract.rs", "opensearch_contract"), ("tests/synonym_files.rs", "synonym_files")]
        length = sum(len(x) for x in lines)
        for k, (path, crate) in enumerate(suites):
            want = max(6, (size - length) // 62) if k < 3 else max(3, (size - length) // 60)
            if k == 0:
                names = sorted(r.sample(RS_TESTS, min(want, 160)))
                if filt:
                    names = [f"{filt}::{x.rsplit('::', 1)[1]}" for x in names]
            elif k == 1:
                names = [f"golden::{_slug(r.choice(QUERIES))}_{r.randint(1, 400):03d}" for _ in range(min(want, 120))]
            elif k == 2:
                names = [f"contract::{x}" for x in ("search_body_shape", "explain_roundtrip", "timeout_maps_to_503",
                                                     "alias_resolution", "msm_for_long_queries", "highlight_fields")]
            else:
                names = [f"synonyms::{f}_{c}" for f in ("synonyms_pl", "synonyms_brands", "stopwords_pl")
                         for c in ("parses", "no_cycles", "no_trailing_commas")]
            failing = fail is not None and k == 0
            if failing:
                names[r.randrange(len(names))] = fail[0]
            block = [f"     Running {path} (target/debug/deps/{crate}-{self.hexs(16)})", "", f"running {len(names)} tests"]
            block += [f"test {x} ... {'FAILED' if failing and x == fail[0] else 'ok'}" for x in names]
            if failing:
                left = r.sample(("buty", "obuwie", "kalosze", "205/55", "r16", "zolw", "żółw", "lego", "technic"), 3)
                block += ["", "failures:", "", f"---- {fail[0]} stdout ----", fail[1], "assertion `left == right` failed",
                          f"  left: {json.dumps(left, ensure_ascii=False)}", f" right: {json.dumps(left[:2], ensure_ascii=False)}",
                          "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "", "",
                          "failures:", f"    {fail[0]}", "",
                          f"test result: FAILED. {len(names) - 1} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in {r.uniform(0.05, 2):.2f}s",
                          "", "error: test failed, to rerun pass `--lib`"]
                lines += block
                break
            block += ["", f"test result: ok. {len(names)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
                          f"finished in {r.uniform(0.01, 3):.2f}s", ""]
            lines += block
            length += sum(len(x) + 1 for x in block)
            if length >= size and k >= 1:
                break
        return "\n".join(lines)

    def out_cargo_clippy(self, size: int) -> str:
        r = self.rng
        lints = (("redundant_clone", "redundant clone", "let tokens = query.tokens.clone();"),
                 ("needless_borrow", "this expression creates a reference which is immediately dereferenced by the compiler",
                  "let folded = fold(&s.as_str());"),
                 ("manual_let_else", "this could be rewritten as `let...else`", "let plan = match build_plan(q) {"),
                 ("too_many_arguments", "this function has too many arguments (8/7)", "pub fn build_query(q: &str, ctx: &RewriteCtx,"),
                 ("large_enum_variant", "large size difference between variants", "pub enum Rewrite {"),
                 ("single_char_pattern", "single-character string constant used as pattern", "raw.split(\",\")"))
        lines = [f"    Checking query-rewriter v0.14.{r.randint(0, 9)} (/home/dev/kramik/search/query-rewriter)"]
        count = 0
        lines = _Lines(lines)
        while lines.chars < size and count < 40:
            name, msg, code = r.choice(lints)
            ln, col = r.randint(12, 640), r.randint(5, 40)
            lines += [f"warning: {msg}", f"   --> src/rewrite/{r.choice(RS_MODS)}.rs:{ln}:{col}", "    |",
                      f"{ln:<4}|     {code}", f"    |     {'^' * r.randint(6, 24)}", "    |",
                      f"    = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#{name}",
                      f"    = note: `#[warn(clippy::{name})]` on by default", ""]
            count += 1
        lines += [f"warning: `query-rewriter` (lib) generated {count} warnings",
                  f"    Finished `dev` profile [unoptimized + debuginfo] target(s) in {r.uniform(3, 40):.2f}s"]
        return "\n".join(lines)

    def out_cargo_bench(self, size: int) -> str:
        r = self.rng
        lines = [f"    Finished `bench` profile [optimized] target(s) in {r.uniform(20, 90):.2f}s",
                 f"     Running benches/rewrite.rs (target/release/deps/rewrite-{self.hexs(16)})"]
        lines = _Lines(lines)
        while lines.chars < size and len(lines) < 200:
            q = _slug(r.choice(QUERIES))
            ns = r.randint(2000, 90000)
            lines += [f"rewrite/{q}", f"                        time:   [{ns * 0.97:.3f} ns {ns:.3f} ns {ns * 1.03:.3f} ns]",
                      f"                        change: [{r.uniform(-6, 2):+.4f}% {r.uniform(-3, 3):+.4f}% {r.uniform(-1, 6):+.4f}%] (p = {r.uniform(0, 0.9):.2f} > 0.05)",
                      "                        No change in performance detected."]
        return "\n".join(lines)

    def out_jest(self, size: int, fail: tuple[str, str, str] | None = None) -> str:
        """``fail`` = (suite, header line "● Suite › test", detail): that suite fails."""
        r = self.rng
        lines = ["> storefront@3.18.0 test", "> jest --ci --colors=false src/", ""]
        failed = 0
        tests = 0
        suites = list(JEST_SUITES)
        r.shuffle(suites)
        if fail:
            suites.sort(key=lambda s: s[0] != fail[0])
        total_suites = r.randint(18, 30)
        for suite, behaviors in suites:
            bad = fail is not None and suite == fail[0]
            lines.append(f"{'FAIL' if bad else 'PASS'} src/components/{suite}/{suite}.test.tsx ({r.uniform(1.2, 9):.3f} s)")
            lines.append(f"  {suite}")
            for b in behaviors:
                lines.append(f"    ✓ {b} ({r.randint(3, 240)} ms)")
                tests += 1
            if bad:
                name = fail[1].split(" › ", 1)[1]
                lines.append(f"    ✕ {name} ({r.randint(20, 400)} ms)")
                failed += 1
                lines += ["", fail[1], "", fail[2], "",
                          f"      at Object.<anonymous> (src/components/{suite}/{suite}.test.tsx:{r.randint(20, 300)}:{r.randint(5, 40)})", ""]
        lines = _Lines(lines)
        while lines.chars < size - 300 and len(lines) < 400:
            p = r.choice(("lib/search/query", "lib/search/params", "hooks/useSearch", "lib/price/format", "lib/tracking/events"))
            lines.append(f"PASS src/{p}.test.ts")
            for _ in range(r.randint(3, 9)):
                lines.append(f"  ✓ {r.choice(('builds query string', 'keeps filters order', 'encodes polish chars', 'drops empty params', 'formats 1 299,00 zł', 'sends search_impression', 'handles page beyond last'))} ({r.randint(1, 30)} ms)")
                tests += 1
        lines += ["", f"Test Suites: {'1 failed, ' if failed else ''}{total_suites - failed} passed, {total_suites} total",
                  f"Tests:       {'1 failed, ' if failed else ''}{tests} passed, {tests + failed} total",
                  f"Snapshots:   {r.randint(4, 30)} passed, {r.randint(30, 40)} total",
                  f"Time:        {r.uniform(6, 40):.3f} s", "Ran all test suites matching /src\\//i."]
        return "\n".join(lines)

    def hit(self, index: str, score: float, sku: str | None = None) -> dict[str, Any]:
        name, brand, cat, s = self.product()
        price = self.rng.randint(1900, 899900) / 100
        low = round(price * self.rng.uniform(0.85, 1.0), 2)
        return {"_index": index, "_id": sku or s, "_score": round(score, 5),
                "_source": {"sku": sku or s, "name": name, "brand": brand, "category_path": cat, "price": price,
                            "lowest_price_30d": low, "promo": low < price, "in_stock": self.rng.random() < 0.9,
                            "rating": round(self.rng.uniform(3, 5), 1), "reviews": self.rng.randint(0, 4000)}}

    def out_os_search(self, size: int, index: str | None = None) -> str:
        r = self.rng
        idx = index or self.f_index()
        k = max(3, min(90, size // 540))
        score = r.uniform(18, 60)
        hits = []
        for _ in range(k):
            hits.append(self.hit(idx, score))
            score *= r.uniform(0.9, 0.995)
        resp = {"took": r.randint(4, 180), "timed_out": False,
                "_shards": {"total": 6, "successful": 6, "skipped": 0, "failed": 0},
                "hits": {"total": {"value": r.randint(40, 9000), "relation": "eq"}, "max_score": hits[0]["_score"],
                         "hits": hits}}
        return _pj(resp)

    def explain_clause(self, field: str, term: str, docid: int) -> dict[str, Any]:
        r = self.rng
        n, big = r.randint(10, 90000), r.randint(900000, 1300000)
        idf, tf, boost = r.uniform(2, 11), r.uniform(0.3, 0.7), r.choice((1.0, 1.5, 2.0, 3.0))
        return {"value": round(boost * idf * tf * 2.2, 6),
                "description": f"weight({field}:{term} in {docid}) [PerFieldSimilarity], result of:",
                "details": [{"value": round(boost * idf * tf * 2.2, 6),
                             "description": "score(freq=1.0), computed as boost * idf * tf from:",
                             "details": [{"value": boost * 2.2, "description": "boost", "details": []},
                                         {"value": round(idf, 6), "description": "idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:",
                                          "details": [{"value": n, "description": "n, number of documents containing term", "details": []},
                                                      {"value": big, "description": "N, total number of documents with field", "details": []}]},
                                         {"value": round(tf, 6), "description": "tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:",
                                          "details": [{"value": 1.0, "description": "freq, occurrences of term within document", "details": []},
                                                      {"value": 1.2, "description": "k1, term saturation parameter", "details": []},
                                                      {"value": 0.75, "description": "b, length normalization parameter", "details": []},
                                                      {"value": float(r.randint(3, 14)), "description": "dl, length of field", "details": []},
                                                      {"value": round(r.uniform(5, 9), 4), "description": "avgdl, average length of field", "details": []}]}]}]}

    def out_os_explain(self, size: int, sku: str, query: str, inject: tuple[str, str, int] | None = None) -> str:
        r = self.rng
        docid = inject[2] if inject else r.randint(1000, 999999)
        fields = ["name.morfologik", "name.stempel", "brand.text", "category_path.text", "description.morfologik"]
        clauses = []
        terms = [t.translate(FOLD) if r.random() < 0.2 else t for t in query.split()][:4] or ["kalosze"]
        while len(clauses) * 1500 < size and len(clauses) < 14:
            clauses.append(self.explain_clause(r.choice(fields), r.choice(terms), docid))
        if inject:
            clauses.insert(r.randrange(len(clauses) + 1), self.explain_clause(inject[0], inject[1], docid))
        total = round(sum(c["value"] for c in clauses), 6)
        return _pj({"_index": self.f_index(), "_id": sku, "matched": True,
                    "explanation": {"value": total, "description": "sum of:", "details": clauses}})

    def out_os_analyze(self, size: int, text: str, analyzer: str) -> str:
        r = self.rng
        tokens = []
        pos = 0
        words = text.split()
        while len(tokens) * 120 < size and len(tokens) < 120:
            w = words[pos % len(words)] if words else "kalosze"
            stem = w.translate(FOLD)[: max(3, len(w) - r.randint(0, 3))]
            tokens.append({"token": stem, "start_offset": pos * 6, "end_offset": pos * 6 + len(w), "type": "<ALPHANUM>",
                           "position": pos})
            pos += 1
        return _pj({"analyzer": analyzer, "tokens": tokens})

    def out_cat_indices(self, size: int, extra: list[str] | None = None) -> str:
        r = self.rng
        names = sorted({self.f_index() for _ in range(max(4, min(80, size // 120)))} | set(extra or []))
        names += ["suggest-pl-v7", "queries-pl-2026.09", "categories-pl-v3"]
        rows = ["health status index                  uuid                   pri rep docs.count docs.deleted store.size pri.store.size"]
        for nm in names:
            rows.append(f"green  open   {nm:<22} {self.hexs(22)} {r.choice((3, 6, 6, 12)):>3} {r.choice((1, 1, 2)):>3} "
                        f"{r.randint(900000, 1400000):>10} {r.randint(0, 90000):>12} {r.uniform(8, 40):>9.1f}gb {r.uniform(4, 20):>13.1f}gb")
        return "\n".join(rows)

    def out_cat_nodes(self, size: int, extra: list[str] | None = None) -> str:
        r = self.rng
        nodes = [f"os-krk-data-{i:02d}" for i in range(1, 10)] + [f"os-krk-coord-{i:02d}" for i in range(1, 4)]
        nodes += [f"os-krk-master-{i:02d}" for i in range(1, 4)] + list(extra or [])
        rows = ["ip           heap.percent ram.percent cpu load_1m load_5m load_15m node.role master name"]
        reps = max(1, size // (len(nodes) * 90))
        for rep in range(reps):
            if rep:
                rows += ["", f"# {self.stamps(1)[0]}", rows[0]]
            for nm in nodes:
                role = "d" if "data" in nm else ("m" if "master" in nm else "-")
                rows.append(f"10.40.{r.randint(1, 9)}.{r.randint(10, 250):<3} {r.randint(20, 85):>12} {r.randint(60, 99):>11} "
                            f"{r.randint(2, 90):>3} {r.uniform(0.2, 9):>7.2f} {r.uniform(0.2, 9):>7.2f} {r.uniform(0.2, 9):>8.2f} "
                            f"{role:>9} {'*' if nm.endswith('master-01') else '-':>6} {nm}")
        return "\n".join(rows)

    def out_cat_shards(self, size: int) -> str:
        r = self.rng
        rows = ["index                  shard prirep state      docs  store ip          node"]
        idx = [self.f_index() for _ in range(3)]
        rows = _Lines(rows)
        while rows.chars < size and len(rows) < 300:
            rows.append(f"{r.choice(idx):<22} {r.randint(0, 11):>5} {r.choice('pr'):>6} STARTED {r.randint(90000, 240000):>8} "
                        f"{r.uniform(1, 9):>5.1f}gb 10.40.{r.randint(1, 9)}.{r.randint(10, 250):<3} {self.f_node()}")
        return "\n".join(rows)

    def out_os_health(self, size: int) -> str:
        r = self.rng
        body = {"cluster_name": "kramik-search-krk", "status": r.choice(("green", "green", "yellow")), "timed_out": False,
                "number_of_nodes": 15, "number_of_data_nodes": 9, "discovered_master": True, "active_primary_shards": r.randint(120, 180),
                "active_shards": r.randint(260, 360), "relocating_shards": r.randint(0, 2), "initializing_shards": 0,
                "unassigned_shards": r.choice((0, 0, 0, 2)), "delayed_unassigned_shards": 0, "number_of_pending_tasks": 0,
                "number_of_in_flight_fetch": 0, "task_max_waiting_in_queue_millis": 0,
                "active_shards_percent_as_number": 100.0}
        return _pj(body) + "\n\n" + self.out_cat_shards(max(300, size - 700))

    def out_os_settings(self, size: int, inject: str | None = None) -> str:
        r = self.rng
        idx = self.f_index()
        settings = {"index": {"number_of_shards": "6", "number_of_replicas": "1", "refresh_interval": r.choice(("1s", "30s")),
                              "max_result_window": "10000", "provided_name": idx, "creation_date": str(r.randint(1_790_000_000_000, 1_799_999_999_999)),
                              "analysis": {"filter": {"pl_stop": {"type": "stop", "stopwords_path": "analysis/stopwords_pl.txt"},
                                                      "pl_synonyms": {"type": "synonym_graph", "synonyms_path": "analysis/synonyms_pl.txt", "lenient": "false"},
                                                      "morfologik_stem": {"type": "morfologik_stemming"},
                                                      "stempel_stem": {"type": "polish_stem"},
                                                      "ascii": {"type": "asciifolding", "preserve_original": "true"}},
                                           "analyzer": {"pl_morfologik": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "pl_stop", "morfologik_stem", "ascii"]},
                                                        "pl_stempel": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "pl_stop", "stempel_stem", "ascii"]},
                                                        "pl_search": {"type": "custom", "tokenizer": "standard", "filter": ["lowercase", "pl_synonyms", "morfologik_stem", "ascii"]}}},
                              "uuid": self.hexs(22), "version": {"created": "136387827"}}}
        text = _pj({idx: {"settings": settings}})
        if inject:
            lines = text.splitlines()
            at = next(i for i, x in enumerate(lines) if '"refresh_interval"' in x)
            lines[at] = lines[at][:lines[at].index('"')] + inject + ","
            text = "\n".join(lines)
        if len(text) < size:
            text += "\n\n" + self.out_cat_indices(size - len(text))
        return text

    def out_clickhouse(self, size: int, kind: str, inject: tuple[str, str] | None = None) -> tuple[str, str]:
        """A query and its result; ``inject`` = (alias, value) prints one Vertical row holding it."""
        r = self.rng
        days = r.choice((1, 3, 7, 14, 30))
        qid = self.uuid()
        if kind == "zero":
            sql = (f"SELECT query_norm, count() AS searches, countIf(results_total = 0) AS zero_results, "
                   f"round(zero_results / searches, 4) AS zr_rate FROM clicks.search_events WHERE event_date >= today() - {days} "
                   "GROUP BY query_norm ORDER BY zero_results DESC LIMIT 100")
            cols = ["query_norm", "searches", "zero_results", "zr_rate"]

            def row() -> list[str]:
                s = r.randint(300, 90000)
                z = r.randint(0, s // 3)
                return [r.choice(QUERIES).translate(FOLD) + r.choice(("", "", " tanie", " damskie", " 2026", " promocja")), str(s), str(z), f"{z / s:.4f}"]
        elif kind == "ctr":
            sql = (f"SELECT position, count() AS impressions, sum(clicked) AS clicks, round(clicks / impressions, 4) AS ctr "
                   f"FROM clicks.search_impressions WHERE event_date >= today() - {days} AND position <= 48 GROUP BY position ORDER BY position")
            cols = ["position", "impressions", "clicks", "ctr"]
            pos = [0]

            base = r.randint(2_000_000, 9_000_000)

            def row() -> list[str]:
                pos[0] += 1
                imp = int(base * (0.985 ** pos[0]) * r.uniform(0.99, 1.01))
                c = int(imp * 0.32 / pos[0] ** 0.8 * r.uniform(0.9, 1.1))
                return [str(pos[0]), str(imp), str(c), f"{c / imp:.4f}"]
        elif kind == "reform":
            sql = ("SELECT q1, q2, count() AS pairs FROM clicks.reformulations "
                   f"WHERE event_date >= today() - {days} GROUP BY q1, q2 ORDER BY pairs DESC LIMIT 200")
            cols = ["q1", "q2", "pairs"]

            def row() -> list[str]:
                q = r.choice(QUERIES)
                return [q.translate(FOLD), q, str(r.randint(20, 9000))]
        else:
            sql = ("SELECT toStartOfHour(ts) AS hour, count() AS searches, quantile(0.95)(latency_ms) AS p95, "
                   f"countIf(results_total = 0) AS zero FROM clicks.search_events WHERE ts >= now() - INTERVAL {days} DAY "
                   "GROUP BY hour ORDER BY hour")
            cols = ["hour", "searches", "p95", "zero"]
            day, hour, _ = self.now()
            clock = [day * 24 + hour - min(200, max(3, (size - 400) // 60))]

            def row() -> list[str]:
                clock[0] += 1
                d, h = divmod(clock[0], 24)
                load = 0.2 + 0.8 * max(0.0, 1 - abs(h - 20) / 14)
                return [f"2026-{'11' if d >= 1 else '10'}-{d if d >= 1 else 31 + d:02d} {h:02d}:00:00", str(int(160000 * load * r.uniform(0.9, 1.1))),
                        f"{r.uniform(90, 160) + 120 * load:.1f}", str(int(2500 * load * r.uniform(0.8, 1.2)))]
        rows = [row() for _ in range(max(3, min(220, (size - 400) // (sum(len(c) for c in cols) + 28))))]
        table = _ch_table(cols, rows, {i for i in range(1, len(cols))})
        head = f"Query id: {qid}\n\n"
        if inject:
            table = (f"Row 1:\n──────\n{inject[0]}: {inject[1]}\nsample_rows:  {r.randint(40000, 9000000)}\n"
                     f"window_days:  {days}\n\n") + table
        tail = (f"\n\n{len(rows)} rows in set. Elapsed: {r.uniform(0.05, 9):.3f} sec. Processed {r.uniform(1, 900):.2f} million rows, "
                f"{r.uniform(0.1, 40):.2f} GB ({r.uniform(50, 900):.2f} million rows/s., {r.uniform(0.5, 9):.2f} GB/s.)\n"
                f"Peak memory usage: {r.uniform(20, 900):.2f} MiB.")
        return sql, head + table + tail

    def out_ltr(self, size: int, summary: str | None = None, fail: list[str] | None = None, extra: str | None = None,
                model: str | None = None) -> str:
        r = self.rng
        t = self.stamps(8, " ")
        feats = r.randint(60, 92)
        lines = [f"{t[0][:-4]},{t[0][-3:]} INFO  loading judgments from s3://kramik-ltr/judgments/pl-2026-{r.randint(6, 10):02d}/ ({r.randint(100, 500)} files)",
                 f"{t[1][:-4]},{t[1][-3:]} INFO  features: {feats}, queries: {r.randint(8000, 40000)}, docs: {r.randint(900000, 3000000)}"]
        if fail:
            lines += ["Traceback (most recent call last):", '  File "/app/ltr/train.py", line 214, in <module>', "    main()",
                      '  File "/app/ltr/train.py", line 188, in main', "    X = build_matrix(df, cfg.features)",
                      '  File "/app/ltr/features/__init__.py", line 57, in build_matrix', "    cols = [df[name] for name in names]",
                      '  File "/usr/local/lib/python3.11/site-packages/pandas/core/frame.py", line 4102, in __getitem__',
                      "    indexer = self.columns.get_loc(key)", *fail]
            return "\n".join(lines)
        lines += [f"[LightGBM] [Info] Total Bins {r.randint(8000, 30000)}",
                  f"[LightGBM] [Info] Number of data points in the train set: {r.randint(900000, 2500000)}, number of used features: {feats}",
                  "[LightGBM] [Info] Using GOSS" if r.random() < 0.3 else "[LightGBM] [Info] Using gbdt",
                  "[LightGBM] [Warning] Found whitespace in feature_names, replace with underlines" if r.random() < 0.2 else
                  "[LightGBM] [Info] Start training from score 0.000000"]
        it = 0
        a, b = r.uniform(0.38, 0.44), r.uniform(0.42, 0.48)
        lines = _Lines(lines)
        while (lines.chars < size - 500 or it < 12) and it < 1500:
            it += 1
            a += r.uniform(-0.0005, 0.0012) * (1.5 if it < 50 else 0.3)
            b += r.uniform(-0.0005, 0.0012) * (1.5 if it < 50 else 0.3)
            lines.append(f"[{it}]\tvalid_0's ndcg@5: {a:.6f}\tvalid_0's ndcg@10: {b:.6f}")
        best = max(1, it - r.randint(0, min(30, it - 1)))
        lines += ["Early stopping, best iteration is:", f"[{best}]\tvalid_0's ndcg@5: {a:.6f}\tvalid_0's ndcg@10: {b:.6f}"]
        if extra:
            lines.append(extra)
        lines.append(summary or f"{t[6][:-4]},{t[6][-3:]} INFO  holdout ndcg@10: {b + r.uniform(-0.02, 0.01):.4f}  ndcg@5: {a:.4f}  mrr: {r.uniform(0.5, 0.65):.4f}")
        lines.append(f"{t[7][:-4]},{t[7][-3:]} INFO  model saved to s3://kramik-ltr/models/{model or 'lambdamart-pl-' + self.hexs(8)}.txt")
        return "\n".join(lines)

    def out_ab(self, size: int, exp: str, inject: str | None = None, header: str | None = None) -> str:
        r = self.rng
        day, total = r.randint(2, 20), r.choice((14, 21, 28))
        n1 = r.randint(90000, 900000)
        n2 = int(n1 * r.uniform(0.995, 1.005))
        lines = [header or f"Experiment {exp} — \"{r.choice(('ltr-rescore', 'synonyms-v2', 'autocomplete-ngram', 'fuzzy-len5', 'morfologik-name'))} vs control\"",
                 f"Status: RUNNING  (day {min(day, total)} of {total})   Owner: search-relevance   Allocation: 50/50",
                 f"Exposures: control {n1:,} users · treatment {n2:,} users",
                 inject or f"SRM check: OK (p={r.uniform(0.1, 0.95):.2f})", "",
                 f"{'Metric':<28}{'Control':>10}{'Treatment':>12}{'Δ rel':>10}   {'95% CI':<20}{'p-value':>8}"]
        for metric in ("search_ctr", "add_to_cart_rate", "orders_per_search", "zero_result_rate", "reformulation_rate",
                       "revenue_per_visitor", "time_to_first_click_s"):
            base = r.uniform(0.01, 0.5) if metric != "revenue_per_visitor" else r.uniform(5, 40)
            d = r.uniform(-3, 4)
            lines.append(f"{metric:<28}{base:>10.4f}{base * (1 + d / 100):>12.4f}{d:>+9.2f}%   "
                         f"[{d - 1.3:+.2f}%, {d + 1.3:+.2f}%]    {r.uniform(0.0001, 0.9):>8.4f}")
        lines += ["", "Daily breakdown (search_ctr):", f"{'date':<12}{'control':>10}{'treatment':>11}{'users_c':>10}{'users_t':>10}"]
        d0 = r.randint(1, 20)
        lines = _Lines(lines)
        while lines.chars < size and len(lines) < 260:
            d0 += 1
            lines.append(f"2026-{10 + d0 // 31:02d}-{d0 % 31 + 1:02d}  {r.uniform(0.3, 0.4):>10.4f}{r.uniform(0.3, 0.4):>11.4f}"
                         f"{r.randint(8000, 60000):>10}{r.randint(8000, 60000):>10}")
            if len(lines) % 40 == 0:
                lines += ["", f"Segment: {r.choice(('android', 'ios', 'desktop', 'mweb'))}", f"{'date':<12}{'control':>10}{'treatment':>11}{'users_c':>10}{'users_t':>10}"]
        return "\n".join(lines)

    def out_logs(self, size: int, inject: str | None = None) -> str:
        r = self.rng
        count = max(6, min(400, size // 150))
        stamps = self.stamps(count)
        msgs = ("INFO qrw::server: GET /rewrite?q={q} 200 {ms}ms rules=[diacritics,synonyms,units]",
                "INFO qrw::rewrite: rewrote \"{q}\" -> {n} clauses (synonyms={s}, fuzzy={f})",
                "DEBUG qrw::opensearch::client: POST /products-pl/_search took={ms}ms hits={h}",
                "WARN qrw::rewrite::spelling: no dictionary hit for token \"{t}\", passing through",
                "INFO qrw::server: GET /healthz 200 0ms",
                "WARN qrw::opensearch::client: slow response from {node}:9200 ({ms2}ms)")
        lines = []
        for ts in stamps:
            q = r.choice(QUERIES)
            lines.append(ts + " " + r.choice(msgs).format(q=q.replace(" ", "+"), ms=r.randint(2, 60), n=r.randint(2, 9),
                                                            s=r.randint(0, 4), f=r.choice(("true", "false")), h=r.randint(0, 800),
                                                            t=q.split()[0][:-1], node=self.f_node(), ms2=r.randint(300, 900)))
        if inject:
            lines.insert(r.randint(len(lines) // 3, len(lines)), inject)
        return "\n".join(lines)

    def out_git_log(self, size: int) -> str:
        r = self.rng
        subjects = ("rewrite: cap synonym expansions", "units: parse tire sizes like 205/55r16", "diacritics: keep original token",
                    "opensearch: retry on 429 with jitter", "spelling: skip tokens shorter than 4", "ci: run clippy with -D warnings",
                    "storefront: debounce suggestions", "PriceTag: 30-day reference price", "ltr: add ctr_30d feature",
                    "facets: keep selected brand on top", "analytics: zero-results daily query", "bump opensearch-rs to 2.3")
        lines = []
        lines = _Lines(lines)
        while lines.chars < size and len(lines) < 300:
            lines.append(f"{self.hexs(9)} {r.choice(subjects)} ({r.choice(PEOPLE)}, {r.randint(1, 40)} days ago)")
        return "\n".join(lines)

    def out_grep(self, size: int, word: str) -> str:
        r = self.rng
        lines = []
        lines = _Lines(lines)
        while lines.chars < size and len(lines) < 300:
            f = r.choice(RS_FILES + TS_FILES + PY_FILES)
            shape = r.choice(("    let {w} = cfg.{w};", "    pub {w}: u64,", "        .timeout(Duration::from_millis(self.{w}))",
                              "  const {w} = options.{w} ?? DEFAULTS.{w};", "    {w}: int = {n}", "# {w} is read from the config at startup",
                              "    if tokens.len() > ctx.{w} {{", "        {w}={n},"))
            lines.append(f"{f}:{r.randint(5, 600)}:{shape.format(w=word, n=r.randint(2, 900))}")
        return "\n".join(lines)

    def out_pods(self, size: int, inject: str | None = None) -> str:
        r = self.rng
        lines = ["NAME                                READY   STATUS    RESTARTS      AGE"]
        names = [f"query-rewriter-{self.hexs(9)}-{self.hexs(5)}" for _ in range(r.randint(4, 8))]
        names += [f"storefront-{self.hexs(9)}-{self.hexs(5)}" for _ in range(r.randint(3, 6))]
        if inject:
            names.insert(r.randrange(len(names) + 1), inject)
        for nm in names:
            restarts = r.choice(("0", "0", "1 (3h ago)")) if nm != inject else f"{r.randint(9, 40)} (2m ago)"
            status = "Running" if nm != inject else "CrashLoopBackOff"
            lines.append(f"{nm:<36}{'1/1' if nm != inject else '0/1':<8}{status:<18}{restarts:<14}{r.randint(1, 20)}d")
        text = "\n".join(lines)
        if len(text) < size:
            text += "\n\n$ kubectl -n search-prod top pods\n" + "\n".join(
                f"{nm:<36}{r.randint(50, 900)}m   {r.randint(100, 900)}Mi" for nm in names)
            text += "\n\n" + self.out_logs(size - len(text))
        return text

    def code(self, path: str, size: int) -> str:
        """A file's text as read_file shows it (cat -n style)."""
        lines = self.code_text(path, size).splitlines()
        return "\n".join(f"{i:>6}\t{x}" for i, x in enumerate(lines, 1))

    def code_text(self, path: str, size: int) -> str:
        r = self.rng
        if path.endswith(".rs"):
            head, snips = RS_HEADER, RS_SNIPPETS
        elif path.endswith((".ts", ".tsx")):
            head, snips = TS_HEADER, TS_SNIPPETS
        elif path.endswith(".py"):
            head, snips = PY_HEADER, PY_SNIPPETS
        else:
            return self.config_text(path, size)
        parts = [head]
        total = len(head)
        while total < size * 0.8 and len(parts) < 60:
            q = r.choice(QUERIES)
            words = q.split()
            suite, behaviors = r.choice(JEST_SUITES)
            s = _fill(r.choice(snips), fn=f"{r.choice(('expand', 'fold', 'apply', 'rewrite', 'search', 'boost'))}_{r.choice(RS_OBJS)}",
                      Ty=r.choice(("Synonym", "Fuzzy", "Units", "Brand", "Spelling")), n=r.randint(2, 30), table=r.choice(("synonyms", "brands", "units")),
                      f=f"{r.uniform(0.5, 3):.1f}", test=f"{r.choice(RS_VERBS)}_{r.choice(RS_OBJS)}", q=q, t1=words[0],
                      t2=words[-1].translate(FOLD), Comp=suite, behavior=r.choice(behaviors), fx=_slug(q))
            parts.append(s)
            total += len(s) + 1
        return "\n\n".join(parts)

    def config_text(self, path: str, size: int) -> str:
        r = self.rng
        if path.endswith(".yaml"):
            body = (f"objective: lambdarank\nmetric: ndcg\neval_at: [5, 10]\nnum_leaves: {r.choice((31, 63, 127))}\nlearning_rate: 0.05\nmin_data_in_leaf: 200\n"
                    "feature_fraction: 0.8\nbagging_fraction: 0.8\nbagging_freq: 5\nlambdarank_truncation_level: 20\nrounds: 600\n"
                    "early_stopping: 40\njudgments: s3://kramik-ltr/judgments/pl-2026-09/\nfeatures:\n")
            body += "".join(f"  - {f}\n" for f in FEATURES)
        elif path.endswith(".toml"):
            body = ("[server]\nbind = \"0.0.0.0:8080\"\nworkers = 8\n\n[opensearch]\nhosts = [\"http://os-krk-coord-01:9200\", "
                    "\"http://os-krk-coord-02:9200\", \"http://os-krk-coord-03:9200\"]\nalias = \"products-pl\"\ntimeout_ms = 800\n"
                    "connect_timeout_ms = 150\nretries = 2\n\n[rewrite]\nrules = [\"diacritics\", \"units\", \"synonyms\", \"spelling\", \"category_intent\"]\n"
                    "min_token_len = 3\n\n[rewrite.synonyms]\nfile = \"synonyms_pl.txt\"\nmax_expansions = 4\n\n[rewrite.spelling]\n"
                    "dictionary = \"s3://kramik-search/dict/pl-2026-09.fst\"\nmax_edits = 1\n")
        elif path.endswith(".json"):
            body = _pj({"index_patterns": ["products-pl-*"], "template": {"settings": {"number_of_shards": 6, "number_of_replicas": 1},
                        "mappings": {"properties": {"name": {"type": "text", "analyzer": "pl_morfologik", "fields": {
                            "stempel": {"type": "text", "analyzer": "pl_stempel"}, "keyword": {"type": "keyword"}}},
                            "brand": {"type": "keyword", "fields": {"text": {"type": "text"}}}, "category_path": {"type": "text"},
                            "price": {"type": "scaled_float", "scaling_factor": 100}, "lowest_price_30d": {"type": "scaled_float", "scaling_factor": 100},
                            "ean": {"type": "keyword"}, "in_stock": {"type": "boolean"}, "created_at": {"type": "date"}}}}})
        elif path.endswith(".txt"):
            body = "".join(f"{a}, {b}\n" for a, b in SYN_PAIRS)
        else:
            body = ("SELECT\n    query_norm,\n    count() AS searches,\n    countIf(results_total = 0) AS zero_results,\n"
                    "    round(zero_results / searches, 4) AS zr_rate\nFROM clicks.search_events\nWHERE event_date >= today() - 7\n"
                    "GROUP BY query_norm\nORDER BY zero_results DESC\nLIMIT 50\n")
        lines = body.splitlines()
        lines = _Lines(lines)
        while path.endswith(".txt") and lines.chars < size and len(lines) < 400:
            a, b = r.choice(SYN_PAIRS)
            lines.append(f"{a} {r.choice(('damskie', 'męskie', 'dziecięce', 'zimowe', 'tanie'))}, {b}")
        return "\n".join(lines)

    def out_edit(self, path: str, old: str, new: str) -> str:
        r = self.rng
        ln = r.randint(10, 400)
        ctx = self.code(path, 500).splitlines()[:4]
        snippet = [f"{ln + i:>6}\t{x.split(chr(9), 1)[-1]}" for i, x in enumerate(ctx)]
        snippet += [f"{ln + len(ctx) + i:>6}\t{x}" for i, x in enumerate(new.splitlines())]
        return (f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"
                + "\n".join(snippet))

    def out_mapping(self, size: int, index: str) -> str:
        body = json.loads(self.config_text("opensearch/templates/products-pl.json", 0))["template"]["mappings"]
        text = _pj({index: {"mappings": body}})
        if len(text) < size:
            text += "\n\n" + self.out_cat_indices(size - len(text), [index])
        return text

    # ---- filler: what the user asks for in between ----------------------------------------------------------

    def fstep(self, tool: str, pl: bool) -> tuple[str, dict[str, Any], Callable[[int], str], Callable[[], str]]:
        """(the user's ask, call arguments, run(size) -> output, gist for the answer after it)."""
        r = self.rng
        info: dict[str, Any] = {}
        q = self.f_query()
        if tool == "shell":
            kind = r.choice(("logs", "logs", "git", "grep", "pods", "curl"))
            if kind == "logs":
                since = r.choice((5, 15, 30, 60))
                return ((f"pokaż logi rewritera z ostatnich {since} min" if pl else f"show me the rewriter logs from the last {since} minutes"),
                        {"command": f"kubectl -n search-prod logs deploy/query-rewriter --since={since}m | tail -n 400"},
                        lambda s: self.out_logs(s),
                        lambda: ("W logach nic poważnego: pojedyncze `slow response` z coordów (300–900 ms) i kilka `no dictionary hit` w spellingu." if pl
                                 else "Nothing serious in the logs: a few `slow response` warnings from the coordinators (300–900 ms) and some spelling misses."))
            if kind == "git":
                return (("co ostatnio wchodziło do rewritera?" if pl else "what went into the rewriter lately?"),
                        {"command": "git -C query-rewriter log --oneline --format='%h %s (%an, %ar)' -n 120"},
                        lambda s: self.out_git_log(s),
                        lambda: ("Ostatnio głównie synonimy, units i retry w kliencie OpenSearch; nic, co ruszałoby ranking." if pl
                                 else "Mostly synonyms, units and the OpenSearch client retries lately; nothing that touches ranking."))
            if kind == "grep":
                word = r.choice(("max_expansions", "timeout_ms", "min_token_len", "debounceMs", "lowest_price_30d", "ndcg"))
                return ((f"gdzie w ogóle używamy {word}?" if pl else f"where do we use {word} at all?"),
                        {"command": f"grep -rn {word} query-rewriter/src storefront/src ltr"},
                        lambda s: self.out_grep(s, word),
                        lambda: (f"`{word}` siedzi w kilku miejscach, główne użycie w {self.fileref()}." if pl
                                 else f"`{word}` shows up in a few places; the main use is {self.fileref()}."))
            if kind == "pods":
                return (("jak wyglądają pody wyszukiwarki?" if pl else "how do the search pods look?"),
                        {"command": "kubectl -n search-prod get pods -l app.kubernetes.io/part-of=search"},
                        lambda s: self.out_pods(s),
                        lambda: ("Wszystkie pody Running, restarty pojedyncze i stare." if pl else "All pods Running; the few restarts are old."))
            return ((f"co rewriter robi z '{q}'?" if pl else f"what does the rewriter do with '{q}'?"),
                    {"command": f"curl -s 'http://localhost:8080/debug/rewrite?q={q.replace(' ', '+')}' | jq ."},
                    lambda s: _pj({"query": q, "tokens": q.split(), "folded": q.translate(FOLD),
                                   "rules": [{"rule": n, "applied": r.random() < 0.6, "took_us": r.randint(3, 400)}
                                             for n in ("diacritics", "units", "synonyms", "spelling", "category_intent")],
                                   "opensearch_body": json.loads(self.search_body(q))}) + "\n\n" + self.out_logs(max(0, s - 1500)),
                    lambda: (f"Dla '{q}' odpalają się diacritics i synonyms; units nic nie łapie, spelling bez zmian." if pl
                             else f"For '{q}' diacritics and synonyms fire; units catches nothing, spelling leaves it alone."))
        if tool == "read_file":
            path = r.choice(RS_FILES + TS_FILES + PY_FILES + OTHER_FILES)
            return ((f"otwórz {path}" if pl else f"open {path}"), {"path": path}, lambda s: self.code(path, s),
                    lambda: (f"To jest {path}; najciekawsze jest koło linii {r.randint(20, 300)}, reszta to boilerplate." if pl
                             else f"That's {path}; the interesting part is around line {r.randint(20, 300)}, the rest is boilerplate."))
        if tool == "edit_file":
            path, old, new, what_pl, what_en = r.choice((
                ("query-rewriter/config/prod.toml", "timeout_ms = 800", "timeout_ms = 900", "podbij timeout do OpenSearcha do 900", "bump the OpenSearch timeout to 900"),
                ("query-rewriter/config/prod.toml", "max_expansions = 4", "max_expansions = 5", "daj max_expansions 5 w configu", "set max_expansions to 5 in the config"),
                ("query-rewriter/src/rewrite/synonyms.rs", "if tok.text.chars().count() < ctx.min_token_len {", "if tok.text.chars().count() <= ctx.min_token_len {", "popraw ten warunek na <= w synonimach", "make that condition <= in synonyms"),
                ("storefront/src/hooks/useSearch.ts", "staleTime: 30_000,", "staleTime: 60_000,", "wydłuż staleTime w useSearch do minuty", "make staleTime in useSearch one minute"),
                ("ltr/features/clicks.py", "PRIOR_CLICKS, PRIOR_IMPRESSIONS = 1.0, 20.0", "PRIOR_CLICKS, PRIOR_IMPRESSIONS = 2.0, 40.0", "zwiększ prior w CTR dwa razy", "double the CTR prior"),
                ("storefront/src/components/PriceTag/PriceTag.tsx", "return p.promo && p.referencePrice != null && p.referencePrice > p.current;", "return Boolean(p.promo && p.referencePrice && p.referencePrice > p.current);", "uprość ten warunek w PriceTag", "simplify that condition in PriceTag")))
            return (what_pl if pl else what_en, {"path": path, "old_string": old, "new_string": new},
                    lambda s: self.out_edit(path, old, new),
                    lambda: (f"Zmienione w {path}." if pl else f"Changed in {path}."))
        if tool == "cargo":
            kind = r.choice(("test", "test", "test", "clippy", "bench", "fail"))
            if kind in ("test", "fail"):
                filt = f"rewrite::{r.choice(RS_MODS)}" if r.random() < 0.3 else None
                fail = None
                if kind == "fail":
                    test = r.choice(RS_TESTS)
                    line = f"thread '{test}' panicked at src/rewrite/{test.split('::')[1]}.rs:{r.randint(20, 700)}:{r.choice((5, 9, 13, 17))}:"
                    if line not in self.reserved_set:
                        fail = (test, line)
                        info["fail"] = test

                def run(s: int) -> str:
                    out = self.out_cargo_test(s, fail=fail, filt=filt)
                    info["n"] = out.count(" ... ok")
                    return out
                return (("odpal testy rewritera" if pl else "run the rewriter tests"),
                        {"subcommand": "test", "package": "query-rewriter", **({"filter": filt} if filt else {})}, run,
                        lambda: ((f"Jeden test czerwony: `{info['fail'].rsplit('::', 1)[1]}` — to ten sam flaky przypadek co wcześniej, zależy od kolejności w HashMapie." if pl
                                  else f"One red test, `{info['fail'].rsplit('::', 1)[1]}` — the same flaky HashMap-order case as before.") if "fail" in info else
                                 (f"Zielono: {info.get('n', 0)} testów przeszło." if pl else f"Green: {info.get('n', 0)} tests passed.")))
            if kind == "clippy":
                return (("puść clippy" if pl else "run clippy"), {"subcommand": "clippy", "package": "query-rewriter", "args": ["--all-targets"]},
                        lambda s: self.out_cargo_clippy(s),
                        lambda: ("Clippy marudzi tylko o drobiazgach (redundant_clone, needless_borrow), nic blokującego." if pl
                                 else "Clippy only nags about small stuff (redundant_clone, needless_borrow), nothing blocking."))
            return (("sprawdź bench rewritera" if pl else "check the rewriter bench"), {"subcommand": "bench", "package": "query-rewriter", "args": ["--bench", "rewrite"]},
                    lambda s: self.out_cargo_bench(s),
                    lambda: ("Bench bez istotnych zmian, wszystko w granicach szumu." if pl else "The bench shows no significant change; all within noise."))
        if tool == "jest":
            fail = None
            if r.random() < 0.2:
                suite, behaviors = r.choice(JEST_SUITES)
                b = r.choice(behaviors)
                fail = (suite, f"● {suite} › {b}", "    expect(received).toBeInTheDocument()\n\n    received value must be an HTMLElement or an SVGElement.\n    Received has value: null")
            return (("odpal jest na storefroncie" if pl else "run jest on the storefront"),
                    {"project": "storefront", "args": ["--ci", "src/"]}, lambda s: self.out_jest(s, fail),
                    lambda: ((f"Czerwony tylko {fail[1][2:]} — snapshot z null, wygląda na niezwiązane z nami." if pl
                              else f"Only {fail[1][2:]} is red — a null render, looks unrelated to us.") if fail else
                             ("Wszystkie suite'y zielone." if pl else "All suites green.")))
        if tool == "opensearch":
            kind = r.choice(("search", "search", "explain", "analyze", "indices", "nodes", "health", "settings"))
            if kind == "search":
                idx = "products-pl"
                return ((f"puść '{q}' na aliasie i pokaż top wyniki" if pl else f"run '{q}' against the alias and show the top hits"),
                        {"method": "POST", "path": f"/{idx}/_search", "body": json.loads(self.search_body(q))},
                        lambda s: self.out_os_search(s),
                        lambda: (f"Dla '{q}' top 3 wyglądają sensownie, dalej sporo akcesoriów zamiast produktów głównych." if pl
                                 else f"For '{q}' the top 3 look fine; further down there are a lot of accessories instead of the main products."))
            if kind == "explain":
                sku = self.f_sku()
                return ((f"zrób explain dla SKU {sku} na '{q}'" if pl else f"explain SKU {sku} for '{q}'"),
                        {"method": "GET", "path": f"/products-pl/_explain/{sku}", "body": {"query": json.loads(self.search_body(q))["query"]}},
                        lambda s: self.out_os_explain(s, sku, q),
                        lambda: ("Score rozkłada się równo między name.morfologik i category_path, nic dziwnego." if pl
                                 else "The score splits evenly between name.morfologik and category_path; nothing odd."))
            if kind == "analyze":
                an = r.choice(("pl_morfologik", "pl_stempel", "pl_search"))
                return ((f"jak {an} tnie '{q}'?" if pl else f"how does {an} tokenize '{q}'?"),
                        {"method": "POST", "path": "/products-pl/_analyze", "body": {"analyzer": an, "text": q}},
                        lambda s: self.out_os_analyze(s, q, an),
                        lambda: (f"{an} daje dla '{q}' tokeny bez ogonków i ucina końcówki; stempel tnie agresywniej niż morfologik." if pl
                                 else f"{an} folds diacritics and cuts suffixes for '{q}'; stempel is more aggressive than morfologik."))
            if kind == "indices":
                return (("pokaż _cat/indices dla products-pl" if pl else "show _cat/indices for products-pl"),
                        {"method": "GET", "path": "/_cat/indices/products-pl-*?v&s=index"}, lambda s: self.out_cat_indices(s),
                        lambda: ("Indeksy zielone, rozmiary podobne, nic nie puchnie." if pl else "Indices are green, sizes similar, nothing bloating."))
            if kind == "nodes":
                return (("jak stoją nody?" if pl else "how are the nodes doing?"), {"method": "GET", "path": "/_cat/nodes?v"},
                        lambda s: self.out_cat_nodes(s),
                        lambda: ("Heap na data nodach 40–80%, nic krytycznego." if pl else "Heap on the data nodes is 40–80%, nothing critical."))
            if kind == "health":
                return (("health klastra?" if pl else "cluster health?"), {"method": "GET", "path": "/_cluster/health?pretty"},
                        lambda s: self.out_os_health(s),
                        lambda: ("Klaster bez czerwonych shardów." if pl else "No red shards in the cluster."))
            return (("pokaż settings indeksu" if pl else "show the index settings"), {"method": "GET", "path": "/products-pl/_settings?pretty"},
                    lambda s: self.out_os_settings(s),
                    lambda: ("Analyzery jak w template: pl_morfologik na name, pl_stempel jako subfield, synonimy tylko search-time." if pl
                             else "Analyzers as in the template: pl_morfologik on name, pl_stempel as a subfield, synonyms only at search time."))
        if tool == "clickhouse":
            kind = r.choice(("zero", "ctr", "reform", "latency"))
            sql, out = self.out_clickhouse(self.size(), kind)
            asks = {"zero": ("wyciągnij top zapytań bez wyników", "pull the top zero-result queries"),
                    "ctr": ("CTR po pozycjach z ostatnich dni?", "CTR by position for the last days?"),
                    "reform": ("jakie są najczęstsze reformulacje?", "what are the most common reformulations?"),
                    "latency": ("jak wygląda latencja i zero-results godzinowo?", "how do latency and zero-results look per hour?")}
            return (asks[kind][0 if pl else 1], {"query": sql}, lambda s: out,
                    lambda: ("Liczby podobne jak wczoraj, bez skoków." if pl else "Numbers similar to yesterday, no jumps."))
        if tool == "ltr_train":
            cfg = r.choice(("ltr/configs/lambdamart_pl.yaml", "ltr/configs/lambdamart_pl_small.yaml"))
            return (("puść trening na ostatnich judgmentach" if pl else "run a training on the latest judgments"),
                    {"config": cfg, "judgments": f"s3://kramik-ltr/judgments/pl-2026-{r.randint(6, 10):02d}/", "rounds": r.choice((300, 400, 600))},
                    lambda s: self.out_ltr(s),
                    lambda: ("Trening przeszedł, holdout w okolicach produkcyjnego modelu — bez rewolucji." if pl
                             else "Training went through; the holdout is close to the production model, no revolution."))
        exp = self.f_exp()
        return ((f"jak stoi {exp}?" if pl else f"how is {exp} doing?"), {"experiment": exp, "view": "summary"},
                lambda s: self.out_ab(s, exp),
                lambda: (f"{exp} jeszcze bez istotności na CTR, SRM w porządku." if pl else f"{exp} has no significance on CTR yet; SRM is fine."))

    def search_body(self, q: str, fields: list[str] | None = None, msm: str = "2<-25%") -> str:
        return json.dumps({"size": 48, "query": {"bool": {"must": [{"multi_match": {
            "query": q, "type": "best_fields", "fields": fields or ["name.morfologik^3", "name.stempel", "brand.text^2", "category_path.text"],
            "minimum_should_match": msm}}], "filter": [{"term": {"in_stock": True}}]}},
            "rescore": {"window_size": 200, "query": {"rescore_query": {"sltr": {"params": {"keywords": q}, "model": "lambdamart-pl-prod"}}}}},
            ensure_ascii=False)

    RELATED = {"shell": ("read_file", "opensearch"), "read_file": ("edit_file", "cargo", "jest"), "edit_file": ("cargo",),
               "cargo": ("read_file", "shell"), "jest": ("read_file", "edit_file"), "opensearch": ("shell", "clickhouse"),
               "clickhouse": ("ab_dashboard", "opensearch"), "ltr_train": ("clickhouse", "read_file"), "ab_dashboard": ("clickhouse",)}
    THEMES = (("shell", "read_file", "cargo"), ("read_file", "edit_file", "cargo"), ("read_file", "edit_file", "jest"),
              ("opensearch", "shell"), ("clickhouse", "ab_dashboard"), ("ltr_train", "clickhouse", "read_file"),
              ("ab_dashboard", "clickhouse"), ("opensearch", "clickhouse"), ("cargo", "read_file"), ("jest", "read_file"))

    def run(self, t: int) -> None:
        """A user request and the agent's tool steps: exactly ``t`` >= 4 messages."""
        r = self.rng
        pl = r.random() < 0.7
        theme = list(r.choice(self.THEMES))
        missing = [x for x in TOOLS if x not in self.used] if len(self.out) > 0.45 * self.m else []
        rem = t - 2
        steps: list[list[str]] = []
        if missing:
            c = min(len(missing), rem - 1)
            if rem - (1 + c) == 1:
                c = c - 1 if c > 1 else c + 1
            steps.append((missing + [x for x in TOOLS if x not in missing])[:c])
            rem -= 1 + c
        k = 0
        while rem > 0:
            c = rem - 1 if rem <= 4 else 1
            pool = theme + [x for x in self.RELATED[theme[0]] if x not in theme]
            steps.append([pool[(k + j) % len(pool)] for j in range(c)])
            k += c
            rem -= 1 + c
        first = self.fstep(steps[0][0], pl)
        ask = first[0]
        if not ask.endswith("?"):
            ask += r.choice(("", ".", " pls") if pl else ("", ".", " please"))
        if len(steps[0]) > 2:
            ask = r.choice(("zanim pójdziemy dalej, zrób szybki przegląd wszystkiego: testy, klaster, kliki, eksperymenty",
                            "zrób sweep stanu: rewriter, storefront, OpenSearch, ClickHouse, LTR i dashboard") if pl else
                           ("before we go on, do a quick sweep of everything: tests, cluster, clicks, experiments",))
        deco = r.random()
        if deco < 0.15:
            ask = f"{ask} — jest {self.clock()}, o {self.now()[1] + 1}:00 mam sync z merchem" if pl else f"{ask}, I have a sync at {self.now()[1] + 1}:00"
        elif deco < 0.3:
            ask = f"{r.choice(('ok, ', 'dobra, ', 'hej, ', 'spoko, '))}{ask}" if pl else f"{r.choice(('ok, ', 'alright, ', 'hey, '))}{ask}"
        elif deco < 0.4:
            ask = f"{ask} (patrz {self.fileref()})"
        elif deco < 0.47:
            ask = f"{ask}; btw trace id z tamtego 502 to {self.hexs(32)}, ale to już chyba nieaktualne" if pl else f"{ask}; btw the trace id of that 502 was {self.hexs(32)}, probably stale by now"
        self.user(ask)
        gists = []
        for n, tools in enumerate(steps):
            specs = [first] + [self.fstep(x, pl) for x in tools[1:]] if n == 0 else [self.fstep(x, pl) for x in tools]
            intro = r.choice(("Sprawdzam.", "Już patrzę.", "Odpalam.", "Najpierw to:", "Zobaczmy.", "") if pl else
                             ("Checking.", "On it.", "Running it.", "Let me look.", ""))
            if len(tools) > 2:
                intro = "Robię przegląd wszystkiego naraz." if pl else "Running all of it in parallel."
            _, calls = self.act(intro, [(x, sp[1]) for x, sp in zip(tools, specs)])
            for call, sp in zip(calls, specs):
                self.result(call, sp[2](self.size()))
                gists.append(sp[3]())
        self.say(self.answer(gists, pl))

    def answer(self, gists: list[str], pl: bool) -> str:
        r = self.rng
        extra = r.choice(CHATTER_PL if pl else CHATTER_EN) if r.random() < 0.6 else ""
        tail = r.choice(("", "Coś jeszcze?", "Mam coś zmienić?", "Daj znać, co dalej.") if pl else ("", "Anything else?", "Want me to change anything?"))
        seen = [g for k, g in enumerate(gists) if g not in gists[:k]]
        return " ".join(x for x in (" ".join(seen), extra, tail) if x)

    def chat(self) -> None:
        """A two-message exchange: thanks, a quick question, a reference, an id that matters to nothing."""
        r = self.rng
        q, ref, ms = self.f_query(), self.fileref(), r.randint(120, 380)
        pairs_pl = (("dzięki!", "Nie ma sprawy."), ("spoko, działa", "Super. To zostawiam tak, jak jest."),
                    ("ok, a ile to trwało?", f"Całość ok. {r.randint(2, 9)} min, z czego większość to kompilacja i ładowanie danych."),
                    (f"jest {self.clock()}, zdążymy przed daily?", "Tak, zostały drobiazgi, kilka minut."),
                    (f"zerknij na {ref}, tam chyba jest off-by-one",
                     f"Patrzyłem na {ref}: pętla idzie do len() wyłącznie, więc off-by-one nie ma — myli komentarz, który liczy od 1."),
                    (f"czemu morfologik i stempel dają co innego dla '{q}'?", CHATTER_PL[0]),
                    (f"sprawdź czemu {{\"q\": \"{q}\", \"page\": {r.randint(2, 9)}, \"sort\": \"relevance\"}} daje 500",
                     "To nie limit max_result_window — przy size 48 jesteśmy daleko od 10000. W logach rewritera jest panic przy sortowaniu po relevance z pustym rescore; to znany przypadek, poprawka czeka w PR."),
                    (f"znowu p95 {ms} ms na dashboardzie, tak jak rano", f"Tak, {ms} ms stoi od rana; to wciąż głównie fetch i rescore w OpenSearchu, rewriter to kilka ms."),
                    (f"btw ticket SRCH-{r.randint(1000, 2999)} może poczekać", "Ok, odkładam."),
                    ("hmm, a co z zapytaniami bez ogonków?", CHATTER_PL[1]),
                    ("a jak to się ma do tego, co było w zeszłym tygodniu?", "Podobnie — różnice mieszczą się w szumie dzień do dnia."),
                    ("czemu synonimy są search-time?", CHATTER_PL[4]), ("ok, rozumiem", "👍"),
                    (f"czemu {q} ma tyle akcesoriów w wynikach?", CHATTER_PL[5]))
        pairs_en = (("thanks!", "Sure."), ("cool, works", "Great, leaving it as it is."),
                    ("how long did that take?", f"About {r.randint(2, 9)} minutes, mostly compilation and loading data."),
                    (f"it's {self.clock()}, can we make it before the standup?", "Yes, only small things left."),
                    (f"look at {ref}, I think there's an off-by-one", f"I checked {ref}: the loop stops before len(), so no off-by-one — the comment counting from 1 is what's misleading."),
                    (f"why do morfologik and stempel disagree on '{q}'?", CHATTER_EN[0]),
                    (f"trace id {self.hexs(16)} from the 502 earlier, probably nothing", "Probably — that was during the coordinator restart."),
                    ("hm, what about queries without diacritics?", CHATTER_EN[1]),
                    ("why does offline NDCG not match the A/B?", CHATTER_EN[2]))
        ask, reply = r.choice(pairs_pl if r.random() < 0.7 else pairs_en)
        self.user(ask)
        self.say(reply)

    def double(self) -> None:
        """The user sends two messages in a row, the agent answers both."""
        r = self.rng
        first, second, reply = r.choice((
            ("hmm", "czemu ten reindex wczoraj trwał tak długo?", "Bo szedł z number_of_replicas 1 i bez slices — dwa razy więcej zapisu i jeden wątek na shard. Z replicas 0 i slices=auto powinno być 2–3 razy szybciej."),
            ("a", "jeszcze jedno: ile mamy teraz shardów na indeksie?", "6 primary i po jednej replice, czyli 12 shardów na indeks produktowy."),
            ("czekaj", "zanim coś odpalisz — jak wygląda rescore teraz?", "Rescore LTR na top oknie z query_phase; model lambdamart-pl-prod, wagi query_weight 1.0 i rescore_query_weight 2.0."),
            ("ok", "a synonimy są search-time czy index-time?", CHATTER_PL[4]),
            ("hm", "why did yesterday's reindex take so long?", "It ran with one replica and no slices — double the writes and a single worker per shard. With replicas 0 and slices=auto it should be 2–3x faster."),
            ("wait", "before you run anything — how does rescoring work now?", "LTR rescoring over the top window of the query phase; the prod lambdamart model with rescore_query_weight 2.0.")))
        self.user(first)
        self.user(second)
        self.say(reply)

    def paste(self) -> None:
        r = self.rng
        intro, make, reply = r.choice(FILLER_DOCS)
        doc = make(r)
        outro = r.choice(("what of this actually concerns search?",) if intro.startswith("here") else
                         ("nic nie zmieniaj, tylko powiedz co z tego dotyczy nas", "ogarnij co z tego jest dla rewritera",
                          "zerknij i daj znać czy to w ogóle nasze"))
        idx = self.user(f"{intro}\n\n{doc}\n\n{outro}")
        self.pasted.append((idx, doc))
        self.last_paste = idx
        self.say(reply)

    def filler(self, gap: int) -> None:
        r = self.rng
        assert gap >= 0 and gap != 1, gap
        while gap > 0:
            missing = sum(x not in self.used for x in TOOLS) if len(self.out) > 0.45 * self.m else 0
            if missing and gap >= 4:
                t = min(gap, missing + 3)
                if gap - t == 1:
                    t = gap
            elif gap <= 10:
                t = 2 if gap >= 6 and r.random() < 0.35 else gap
            else:
                t = r.choice((2, 2, 3, 4, 4, 5, 6, 6, 7, 8, 10))
                if gap - t == 1:
                    t += 1
            if t == 2:
                if len(self.out) - self.last_paste > 60 and r.random() < 0.5 and len(self.out) > 0.05 * self.m:
                    self.paste()
                else:
                    self.chat()
            elif t == 3:
                self.double()
            else:
                self.run(t)
            gap -= t
        assert gap == 0


CHATTER_PL = (
    "Morfologik lematyzuje słownikowo, więc 'kalosze' → 'kalosz', a stempel jest heurystyczny i potrafi uciąć krótkie rzeczowniki do dwóch, trzech liter. Stąd więcej false positive'ów przy stemplu na krótkich nazwach produktów.",
    "Zero-results dla zapytań bez ogonków biorą się z tego, że asciifolding jest tylko na name, a nie na category_path ani brand.text — dlatego 'lozko pietrowe' trafia w nazwę, ale już nie w kategorię.",
    "Offline NDCG@10 rośnie, ale CTR w A/B może nie drgnąć: judgmenty są z kliknięć, więc mają position bias, a rescore działa tylko na top oknie.",
    "W ClickHousie join po session_id jest drogi przy 30 dniach; lepiej pre-agregować w materialized view i czytać z niego.",
    "Synonimy search-time są tańsze w utrzymaniu (bez reindexu), ale synonym_graph przy wielowyrazowych regułach potrafi wygenerować sporo klauzul — stąd limit rozwinięć.",
    "Boost na brand.text przy krótkim polu mocno rośnie przez normalizację długości BM25 (dl/avgdl), więc marki potrafią wygrywać z dopasowaniem w nazwie.",
    "Latencja rewritera to ułamek całości — większość czasu to fetch i rescore w OpenSearchu, szczególnie przy window_size 200.",
    "Przy zapytaniach typu '205/55 r16' tokenizer standardowy rozbija na trzy tokeny, więc bez reguły units nie ma dopasowania frazowego.",
)
CHATTER_EN = (
    "Morfologik is dictionary-based, so 'kalosze' becomes 'kalosz'; stempel is heuristic and can cut short nouns down to two or three letters, hence more false positives on short product names.",
    "Zero results for queries without diacritics come from asciifolding being on name only, not on category_path or brand.text.",
    "Offline NDCG@10 can go up while the A/B CTR doesn't move: judgments come from clicks, so they carry position bias, and rescoring only touches the top window.",
    "Joining on session_id over 30 days is expensive in ClickHouse; a materialized view with pre-aggregated rows is the cheaper path.",
    "Search-time synonyms avoid reindexing, but synonym_graph with multi-word rules can blow up the clause count — that's why the expansions are capped.",
    "The brand.text boost grows a lot on a short field because of BM25 length normalization, so brands can beat a match in the name.",
)

FIRST_PARA_PL = ("Dobra, testy zielone, dzięki.", "Ok, widzę, to ma sens.", "Spoko, to na razie zostawmy tak jak jest.",
                 "No dobra, czyli z explaina wszystko jasne.")
FIRST_PARA_EN = ("Nice, that's the number I expected.", "OK, makes sense, leave it like that for now.", "Good, the explain output settles it.")
LONG_BEFORE_PL = ("Wyniki dla butów już lepsze, ale kalosze dalej lecą pod akcesoria, więc jeszcze nie ruszaj nic na prodzie.",
                  "Ok, przejrzałem to, co wyszło z ClickHouse'a — liczby się zgadzają z dashboardem, więc tu spokój.",
                  "Sorry, byłem na callu z merchem, chcą znowu pinować Samsunga, ale to osobny temat.")
LONG_AFTER_PL = ("Potem zerknij jeszcze na logi z rewritera z ostatniej godziny, coś tam sypie warningami o timeoutach.",
                 "I daj znać, jak skończysz, bo o 15 mam sync z PM-ką i chcę mieć liczby.",
                 "Reszta bez zmian, lecimy dalej z planem.")
LONG_BEFORE_EN = ("Looked at the ClickHouse numbers, they match the dashboard, so that part's fine.",
                  "Sorry, was in a call with merch, they want to pin Samsung again but that's another story.")
LONG_AFTER_EN = ("After that check the rewriter logs from the last hour, something keeps warning about timeouts.",
                 "Rest stays as planned.")


class _Facts(_Gen):
    """The planted facts: each template draws its values and says how its episode is emitted."""

    # ---- instructions: (value, query, text, ack, lang, style, tool, doc) ----------------------------------

    def i_alias(self) -> dict[str, Any]:
        v = f"products_pl_write_v{self.rng.randint(10, 99)}"
        return dict(value=v, lang="pl", style="direct", tool="opensearch", query="the alias every reindex has to go through",
                    text=f"Od teraz każdy reindex idzie przez alias `{v}`, a read alias przepinamy dopiero na końcu. Nigdy nie piszemy prosto do indeksu, na który patrzy sklep.",
                    ack=f"Jasne: reindex tylko przez `{v}`, swap read aliasu na samym końcu, jednym wywołaniem _aliases.")

    def i_threads(self) -> dict[str, Any]:
        v = f"--num-threads {self.rng.choice((4, 6, 8, 10, 12))}"
        return dict(value=v, lang="pl", style="direct", tool="ltr_train", query="the thread cap for LTR training runs during working hours",
                    text=f"Nigdy nie puszczaj ltr_train w godzinach 9–17 na więcej niż `{v}` — maszyna jest współdzielona z rekomendacjami i Marek dostaje szału.",
                    ack=f"Ok, w dzień trening najwyżej z `{v}`, pełne runy po 17.")

    def i_window(self) -> dict[str, Any]:
        v = f"okno {self.rng.randint(3, 18) * 5} min"
        return dict(value=v, lang="pl", style="direct", tool="clickhouse", query="the time window for comparing zero-results before and after a synonym change",
                    text=f"Zawsze jak ruszamy synonimy, sprawdzaj zero-results w ClickHousie przed i po zmianie, {v}. Bez tego nie uwierzę w żaden wynik.",
                    ack="Przyjęte — przy każdej zmianie synonimów porównanie zero-results przed/po w ClickHousie.")

    def i_shadow(self) -> dict[str, Any]:
        v = f"{self.rng.randint(3, 21)} dni shadow-logowania"
        return dict(value=v, lang="pl", style="preference", tool="read_file", query="how long a new LTR feature is shadow-logged before training may use it",
                    text=f"Wolę, żeby każdy nowy feature do LTR miał najpierw {v}, zanim wejdzie do treningu — za dużo razy mieliśmy leak z przyszłości.",
                    ack=f"Rozumiem, nowe feature'y najpierw {v}, dopiero potem do treningu.")

    def i_untilexp(self) -> dict[str, Any]:
        v = f"EXP-{self.rng.randint(2000, 2999)}"
        return dict(value=v, lang="pl", style="conditional", tool="ab_dashboard", query="which running experiment blocks changes to the rescore weights",
                    text=f"Dopóki {v} się nie skończy, nie ruszamy wag w rescore, nawet jak offline NDCG będzie wyglądał lepiej.",
                    ack=f"Jasne, wagi rescore zamrożone do końca {v}.")

    def i_p95(self) -> dict[str, Any]:
        v = f"p95 > {self.rng.randint(35, 95) * 10} ms"
        return dict(value=v, lang="pl", style="conditional", tool="shell", query="the search latency after a rewriter deploy at which the user wants to be told instead of a rollback",
                    text=f"Jeśli po deployu rewritera zobaczysz {v} na wyszukiwarce, to nie rollbackuj sam, tylko daj mi znać — wolę sam zdecydować.",
                    ack="Ok, w takim wypadku żadnego rollbacku na własną rękę, tylko wiadomość do Ciebie.")

    def i_table(self) -> dict[str, Any]:
        v = f"clicks.search_events_v{self.rng.randint(2, 9)}"
        return dict(value=v, lang="pl", style="second", tool="clickhouse", query="which ClickHouse table click queries should read from",
                    text=f"{self.rng.choice(FIRST_PARA_PL)}\n\nDo zapytań o kliki bierzemy {v}, stara tabela ma dziurę z października.",
                    ack=f"Dzięki. Zapytania o kliki przełączam na {v}.")

    def i_maxsyn(self) -> dict[str, Any]:
        v = f"max {self.rng.randint(3, 9)} synonimów na token"
        return dict(value=v, lang="pl", style="indirect", tool="read_file", query="the cap on synonym expansions per token",
                    text=f"U nas nie ma czegoś takiego jak nieograniczone rozwinięcia — {v}, reszta leci tylko do logu.",
                    ack="Jasne, limit rozwinięć trzymam w configu rewritera, nadmiar tylko logujemy.")

    def i_friday(self) -> dict[str, Any]:
        v = f"w piątki po {self.rng.randint(12, 16)}:00"
        return dict(value=v, lang="pl", style="indirect", tool="shell", query="when rewriter deploys are off limits",
                    text=f"My nie deployujemy rewritera {v}, nawet z flagą. Jak coś pilnego, to pytaj.",
                    ack=f"Zapisane: {v} żadnych deployów rewritera.")

    def i_field(self) -> dict[str, Any]:
        v = self.rng.choice(("promo_score", "margin_score", "sponsored_rank", "seller_trust_score", "stock_freshness"))
        return dict(value=v, lang="en", style="direct", tool="read_file", query="which ranking weight may only change through an A/B test",
                    text=f"We never touch the `{v}` weight without an A/B test, not even for a hotfix. Merch will ask for it — the answer is no.",
                    ack=f"Understood: `{v}` only changes through an experiment.")

    def i_judg(self) -> dict[str, Any]:
        v = f"judgments/pl-batch-{self.rng.randint(100, 999)}"
        return dict(value=v, lang="en", style="preference", tool="ltr_train", query="which judgment set offline evaluations should run on",
                    text=f"I'd rather you run every offline eval on `{v}` than on the old set, the old one is full of Black Friday noise.",
                    ack=f"OK, offline evals go on `{v}` from now on.")

    def i_ndcg(self) -> dict[str, Any]:
        v = f"more than {self.rng.randint(5, 25) / 10} NDCG points"
        return dict(value=v, lang="en", style="conditional", tool="ltr_train", query="how much holdout NDCG loss means stop and ask before exporting a model",
                    text=f"If a new model loses {v} on the holdout vs prod, don't export it — ask me first.",
                    ack="Got it, I'll stop before export and ask you in that case.")

    def i_maxexec(self) -> dict[str, Any]:
        v = f"max_execution_time = {self.rng.randint(3, 18) * 10}"
        return dict(value=v, lang="en", style="second", tool="clickhouse", query="the execution time limit for ad-hoc ClickHouse queries",
                    text=f"{self.rng.choice(FIRST_PARA_EN)}\n\nFor ad-hoc ClickHouse stuff keep `{v}` in the SETTINGS, the cluster is shared with finance.",
                    ack=f"Will do — `{v}` on every ad-hoc query.")

    def i_gdpr(self) -> dict[str, Any]:
        days = self.rng.choice((30, 45, 60, 90))
        v = f"najwyżej {days} dni"
        return dict(value=v, lang="pl", style="adopted", tool="clickhouse", query="how long raw query logs may stay in ClickHouse",
                    doc=("mail od data teamu:", _doc_gdpr(self.rng, days)),
                    text=f"Czyli dla nas z tego wynika jedno: surowe query logi w ClickHousie trzymamy {v}, potem tylko hash zapytania. TTL na tabelach tak samo.",
                    ack="Jasne, to zasada na stałe: surowe logi z TTL, po nim tylko hash. Sprawdzę, które tabele nie mają TTL.")

    def i_omnibus(self) -> dict[str, Any]:
        v = self.rng.choice(("omnibus_low_30d", "price_min_30d", "omnibus_ref_price", "prior_low_price"))
        return dict(value=v, lang="pl", style="adopted", tool="read_file", query="which index field the crossed-out price must always come with",
                    doc=("notka od legalu, przeczytaj:", _doc_omnibus(self.rng)),
                    text=f"Ok, z tej notki bierzemy dla siebie: przekreślona cena na listingu i w podpowiedziach tylko razem z polem `{v}` z indeksu, nigdy z ceny katalogowej.",
                    ack=f"Przyjęte: cena przekreślona wyłącznie z `{v}`.")

    def i_alert(self) -> dict[str, Any]:
        v = f"{self.rng.choice((1.5, 2, 2.5, 3, 3.5, 4, 5))}% over 10 minutes"
        return dict(value=v, lang="en", style="adopted", tool="clickhouse", query="the zero-results alert threshold the user adopted from the postmortem",
                    doc=("the postmortem from platform:", _doc_postmortem(self.rng)),
                    text=f"Taking one thing from this as our rule: the zero-results alert fires at {v} and pages us, not the platform on-call.",
                    ack=f"Noted: zero-results alert at {v}, routed to search.")

    def i_ean(self) -> dict[str, Any]:
        v = self.rng.choice(("ean_raw", "gtin_str", "ean13_kw", "supplier_ean"))
        return dict(value=v, lang="en", style="adopted", tool="read_file", query="the keyword field EAN codes are mapped to",
                    doc=("feed spec from the new supplier:", _doc_feed(self.rng)),
                    text=f"OK, we adopt their EAN rule on our side too: it stays a string end to end, and in the mapping it goes to `{v}` as a keyword.",
                    ack=f"Agreed — EAN as string everywhere, `{v}` keyword in the mapping.")

    # ---- corrections -----------------------------------------------------------------------------------------

    def c_index(self) -> dict[str, Any]:
        r = self.rng
        mo = r.randint(10, 12)
        d1, d2 = r.sample(range(1, 29), 2)
        old, new = f"products-pl-2026.{mo}.{d1:02d}", f"products-pl-2026.{mo}.{d2:02d}"
        return dict(stale=old, value=new, lang="pl", query="the index to compare the read alias mapping against",
                    stale_text=f"Porównaj mapping aliasu products-pl z indeksem {old}, to ten po ostatnim reindexie.",
                    corr=f"nie, czekaj — chodziło o {new}, nie {old}. Ten z {d1:02d}-ego to był ten zepsuty reindex.",
                    pre=("Sprawdzam mapping.", "opensearch", {"method": "GET", "path": f"/{old}/_mapping"}, lambda s: self.out_mapping(s, old)),
                    pre_say=f"Mapping {old} różni się od aliasu w dwóch miejscach: `name.stempel` nie ma subfielda keyword, a `lowest_price_30d` jest jako float zamiast scaled_float.",
                    main=("Ok, biorę właściwy.", "opensearch", {"method": "GET", "path": f"/{new}/_mapping"}, lambda s: self.out_mapping(s, new)),
                    main_say=f"{new} ma ten sam mapping co alias, poza nowym subfieldem shingles na name. Różnice, które widziałem, dotyczyły tylko tamtego indeksu.")

    def c_exp(self) -> dict[str, Any]:
        r = self.rng
        e1 = r.randint(2000, 2999)
        pos = r.choice((2, 3))
        digits = list(str(e1))
        digits[pos] = r.choice([d for d in "0123456789" if d != digits[pos]])
        old, new = f"EXP-{e1}", f"EXP-{''.join(digits)}"
        return dict(stale=old, value=new, lang="en", query="the id of the ranker experiment to pull CTR and add-to-cart for",
                    stale_text=f"Can you pull CTR and add-to-cart for {old}? The ranker one.",
                    corr=f"ugh, my bad — the ranker experiment is {new}, {old} is the autocomplete one. redo it pls",
                    pre=("Pulling it.", "ab_dashboard", {"experiment": old, "view": "summary"}, lambda s: self.out_ab(s, old)),
                    pre_say=f"{old}: search_ctr flat, add-to-cart slightly up but the CI crosses zero. Nothing significant yet.",
                    main=("Redoing it for the right one.", "ab_dashboard", {"experiment": new, "view": "summary"}, lambda s: self.out_ab(s, new)),
                    main_say=f"{new} (the ranker): search_ctr and add-to-cart both positive; add-to-cart is the one closer to significance.")

    def c_sku(self) -> dict[str, Any]:
        r = self.rng
        s1 = str(r.randint(40_000_000, 99_999_999))
        pos = r.randint(2, 7)
        s2 = s1[:pos] + r.choice([d for d in "0123456789" if d != s1[pos]]) + s1[pos + 1:]
        q = self.f_query()
        body = {"query": json.loads(self.search_body(q))["query"]}
        return dict(stale=s1, value=s2, lang="pl", query=f"the SKU that should be in the top 5 for '{q}'",
                    stale_text=f"Czemu SKU {s1} nie wychodzi na '{q}'? Powinien być w top 5.",
                    corr=f"sorry, pomyliłem się, SKU to {s2} — przepisywałem z ekranu i przekręciłem cyfrę.",
                    pre=("Robię explain.", "opensearch", {"method": "GET", "path": f"/products-pl/_explain/{s1}", "body": body},
                         lambda s: self.out_os_explain(s, s1, q)),
                    pre_say=f"SKU {s1} dopasowuje się tylko przez category_path, w name.morfologik nie ma żadnego tokenu z '{q}', stąd daleko.",
                    main=("Explain dla właściwego SKU.", "opensearch", {"method": "GET", "path": f"/products-pl/_explain/{s2}", "body": body},
                          lambda s: self.out_os_explain(s, s2, q)),
                    main_say=f"{s2} ma dopasowanie w nazwie, ale przegrywa przez brand.text — konkurencja ma markę w zapytaniu.")

    def c_boost(self) -> dict[str, Any]:
        r = self.rng
        field = r.choice(("name.morfologik", "name.stempel", "brand.text", "category_path.text"))
        b1, b2 = r.sample(("1.25", "1.75", "2.25", "2.75", "3.25", "3.75"), 2)
        old, new = f"{field}^{b1}", f"{field}^{b2}"
        q = self.f_query()
        other = [f for f in ("name.morfologik^3", "name.stempel", "brand.text^2", "category_path.text") if not f.startswith(field)]
        return dict(stale=old, value=new, lang="pl", query=f"the boost on {field} for the multi_match experiment",
                    stale_text=f"Podbij na próbę {old} w multi_match i puść '{q}' jeszcze raz.",
                    corr=f"A, i poprawka: miało być {new}, nie {old} — przesadziłem.",
                    pre=("Puszczam z nowym boostem.", "opensearch", {"method": "POST", "path": "/products-pl/_search", "body": json.loads(self.search_body(q, [old, *other]))},
                         lambda s: self.out_os_search(s)),
                    pre_say=f"Z {old} top 10 dla '{q}' przesuwa się mocno w stronę dopasowań po tym polu; dwa akcesoria wypadły z top 5.",
                    main=("Ok, poprawiam.", "opensearch", {"method": "POST", "path": "/products-pl/_search", "body": json.loads(self.search_body(q, [new, *other]))},
                          lambda s: self.out_os_search(s)),
                    main_say=f"Z {new} efekt łagodniejszy: top 3 bez zmian, akcesoria zostają poniżej 10. Wygląda rozsądnie.")

    def c_msm(self) -> dict[str, Any]:
        r = self.rng
        a = r.choice((3, 4))
        p1, p2 = r.sample(range(55, 95, 5), 2)
        old, new = f"{a}<{p1}%", f"{a}<{p2}%"
        return dict(stale=old, value=new, lang="en", query="the minimum_should_match setting for long queries",
                    stale_text=f"set minimum_should_match to \"{old}\" for 4+ token queries and rerun the zero-results sample",
                    corr=f"wait no, \"{new}\" — the other one kills recall on long queries, we tried that in spring",
                    pre=("Rerunning the sample.", "opensearch", {"method": "POST", "path": "/products-pl/_search", "body": json.loads(self.search_body("buty zimowe dzieciece rozmiar 30", msm=old))},
                         lambda s: self.out_os_search(s)),
                    pre_say=f"With \"{old}\" the long-query sample returns results for 31 of 40 queries (was 27).",
                    main=("Rerunning with the right value.", "opensearch", {"method": "POST", "path": "/products-pl/_search", "body": json.loads(self.search_body("buty zimowe dzieciece rozmiar 30", msm=new))},
                          lambda s: self.out_os_search(s)),
                    main_say=f"With \"{new}\" it's 35 of 40 with results, and the top hits still look relevant.")

    def c_synfile(self) -> dict[str, Any]:
        r = self.rng
        v1, v2 = r.sample(range(10, 60), 2)
        old, new = f"synonyms_pl_v{v1}.txt", f"synonyms_pl_v{v2}.txt"
        return dict(stale=old, value=new, lang="pl", query="which synonyms file the new footwear synonyms go into",
                    stale_text=f"Wrzuć nowe synonimy obuwia do {old} i przeładuj analyzer na stagingu.",
                    corr=f"jednak {new}, nie {old} — tamten jest zablokowany przez merch do piątku",
                    pre=("Sprawdzam plik.", "shell", {"command": f"wc -l opensearch/analysis/{old} && tail -n 60 opensearch/analysis/{old}"},
                         lambda s: f"{r.randint(300, 2000)} opensearch/analysis/{old}\n" + self.config_text("opensearch/analysis/synonyms_pl.txt", s)),
                    pre_say=f"{old} ma ostatnie wpisy z odzieży; dopiszę obuwie na końcu, jak potwierdzisz.",
                    main=None, main_say=f"Ok, obuwie idzie do {new}; {old} zostawiam nietknięty.")

    def c_lr(self) -> dict[str, Any]:
        r = self.rng
        l1, l2 = r.sample(("0.025", "0.035", "0.045", "0.055", "0.065", "0.075"), 2)
        old, new = f"--learning-rate {l1}", f"--learning-rate {l2}"
        return dict(stale=old, value=new, lang="en", query="the learning rate for the LTR retraining run",
                    stale_text=f"retrain with {old} and 400 rounds, let's see if it still overfits",
                    corr=f"poprawka: {new}, nie {l1}. Pomyliłem z configiem z zeszłego tygodnia.",
                    pre=("Starting it.", "ltr_train", {"config": "ltr/configs/lambdamart_pl.yaml", "extra_args": ["--learning-rate", l1, "--rounds", "400"]},
                         lambda s: self.out_ltr(s)),
                    pre_say=f"Run with {old} finished; the gap between train and holdout NDCG is smaller than before but still there.",
                    main=("Odpalam jeszcze raz.", "ltr_train", {"config": "ltr/configs/lambdamart_pl.yaml", "extra_args": ["--learning-rate", l2, "--rounds", "400"]},
                          lambda s: self.out_ltr(s)),
                    main_say=f"Z {new} holdout wyszedł podobnie, early stopping wcześniej — przeuczenie mniejsze.")

    def c_traffic(self) -> dict[str, Any]:
        r = self.rng
        p1, p2 = r.sample((10, 15, 20, 25, 30, 40, 50), 2)
        old, new = f"{p1}% ruchu", f"{p2}% ruchu"
        exp = self.f_exp()
        return dict(stale=old, value=new, lang="pl", query=f"the share of traffic for variant B in {exp}",
                    stale_text=f"Ustaw w {exp} {old} na wariant B od jutra rana.",
                    corr=f"nie, czekaj, {new} — PM-ka zgodziła się tylko na tyle",
                    pre=("Ustawiam.", "ab_dashboard", {"experiment": exp, "action": "set_allocation", "treatment_pct": p1, "start": "tomorrow 06:00"},
                         lambda s: f"Allocation change scheduled for {exp}: control {100 - p1}% / treatment {p1}% from 06:00 CET.\n\n" + self.out_ab(s, exp)),
                    pre_say=f"Zaplanowane: {old} na B od jutra 6:00.",
                    main=("Poprawiam alokację.", "ab_dashboard", {"experiment": exp, "action": "set_allocation", "treatment_pct": p2, "start": "tomorrow 06:00"},
                          lambda s: f"Allocation change scheduled for {exp}: control {100 - p2}% / treatment {p2}% from 06:00 CET (replaces the pending change).\n\n" + self.out_ab(s, exp)),
                    main_say=f"Poprawione: {new} na B od jutra rana, poprzednia zmiana nadpisana.")

    def c_node(self) -> dict[str, Any]:
        r = self.rng
        n1, n2 = r.sample(range(10, 30), 2)
        old, new = f"os-krk-data-{n1}", f"os-krk-data-{n2}"
        return dict(stale=old, value=new, lang="en", query="the OpenSearch node with the bad disk that has to be drained",
                    stale_text=f"drain {old} before the restart, it's the one with the bad disk",
                    corr=f"hold on, the bad disk is on {new}, not {old} — I read the wrong row in grafana",
                    pre=("Checking the node list first.", "opensearch", {"method": "GET", "path": "/_cat/nodes?v"}, lambda s: self.out_cat_nodes(s, [old])),
                    pre_say=f"{old} is there with normal heap; I'll set the allocation exclude once you confirm.",
                    main=("Excluding the right node.", "opensearch", {"method": "PUT", "path": "/_cluster/settings", "body": {"persistent": {"cluster.routing.allocation.exclude._name": new}}},
                          lambda s: _pj({"acknowledged": True, "persistent": {"cluster": {"routing": {"allocation": {"exclude": {"_name": new}}}}}, "transient": {}}) + "\n\n" + self.out_cat_shards(s)),
                    main_say=f"Exclude set on {new}; shards are relocating off it now.")

    def c_feature(self) -> dict[str, Any]:
        r = self.rng
        a, b = r.sample((3, 7, 14, 28, 90), 2)
        old, new = f"ctr_{a}d_smoothed", f"ctr_{b}d_{r.choice(('raw', 'decayed', 'bayes'))}"
        return dict(stale=old, value=new, lang="pl", query="the click feature to add to LTR training",
                    stale_text=f"Dorzuć do treningu feature {old}, jest już w feature store.",
                    corr=f"sorry, nie {old}, tylko {new} — smoothed jeszcze nie jest policzony na całym roku",
                    pre=("Patrzę na config.", "read_file", {"path": "ltr/configs/lambdamart_pl.yaml"}, lambda s: self.code("ltr/configs/lambdamart_pl.yaml", s)),
                    pre_say=f"W configu jest {len(FEATURES)} feature'ów; {old} dopiszę na końcu listy.",
                    main=None, main_say=f"Ok, dopisuję {new} zamiast tamtego.")

    def c_analyzer(self) -> dict[str, Any]:
        r = self.rng
        old, new = f"pl_stempel_v{r.randint(2, 9)}", f"pl_morfologik_v{r.randint(2, 9)}"
        return dict(stale=old, value=new, lang="en", query="the analyzer for the name field in the test reindex",
                    stale_text=f"reindex the test index with analyzer {old} on the name field",
                    corr=f"no wait, {new}. stempel was the old plan, we dropped it last sprint",
                    pre=("Checking the analyzer first.", "opensearch", {"method": "POST", "path": "/products-pl/_analyze", "body": {"analyzer": old, "text": "kalosze damskie żółte"}},
                         lambda s: self.out_os_analyze(s, "kalosze damskie żółte", old)),
                    pre_say=f"{old} cuts 'kalosze' to 'kalos'; that's the aggressive behaviour we saw before.",
                    main=("Checking that one.", "opensearch", {"method": "POST", "path": "/products-pl/_analyze", "body": {"analyzer": new, "text": "kalosze damskie żółte"}},
                          lambda s: self.out_os_analyze(s, "kalosze damskie żółte", new)),
                    main_say=f"{new} gives 'kalosz', 'damski', 'żółty' — clean lemmas. I'll use it for the test reindex.")

    def c_ticket(self) -> dict[str, Any]:
        r = self.rng
        t1 = r.randint(3000, 3999)
        pos = r.choice((2, 3))
        d = list(str(t1))
        d[pos] = r.choice([x for x in "0123456789" if x != d[pos]])
        old, new = f"SRCH-{t1}", f"SRCH-{''.join(d)}"
        return dict(stale=old, value=new, lang="pl", query="the ticket the diacritics fix PR should reference",
                    stale_text=f"Podepnij ten fix od ogonków pod {old} w opisie PR-a.",
                    corr=f"a nie, sorry — {new}, tamten to był od facetów",
                    pre=("Patrzę na PR.", "shell", {"command": "gh pr view --json number,title,body"},
                         lambda s: _pj({"number": r.randint(800, 1900), "title": "rewrite: fold diacritics before synonyms", "body": "Fold before synonym lookup.\n\n" + self.out_git_log(max(200, s - 300))})),
                    pre_say=f"PR ma pusty opis poza listą commitów; dopiszę {old} w pierwszej linii.",
                    main=None, main_say=f"Jasne, w opisie PR-a będzie {new}.")

    # ---- decisions: options, value format, query, why ---------------------------------------------------------

    DECISIONS = (
        ("pl", (120, 150, 180, 200, 250, 300), "debounce {} ms", "the debounce chosen for search suggestions in the SearchBox",
         "Decyzja: w SearchBoxie {v} dla podpowiedzi, bo przy 80 ms zasypujemy API przy każdym znaku.",
         "na słabych telefonach podpowiedzi migały"),
        ("pl", (200, 300, 400, 500, 600, 800), "rescore na top {}", "how many top hits the LTR model rescores",
         "Idziemy z LTR jako {v}, nie na całym zbiorze — latencja by nas zabiła.", "przy mniejszym oknie dobre produkty z dalszych pozycji nie dostawały szansy"),
        ("en", (31, 47, 63, 95), "num_leaves={}", "the tree size chosen for the LambdaMART model",
         "Going with LambdaMART, {v} and min_data_in_leaf 200 — deeper trees overfit on the Black Week clicks.", "the holdout curve says so"),
        ("pl", (14, 21, 28), "A/B przez {} dni", "how long the A/B test runs",
         "Ustalamy: {v}, minimum dwa pełne weekendy, nie kończymy wcześniej nawet jak wyjdzie istotność.", "PM chce objąć też wypłatę"),
        ("en", ("1-15", "2-15", "2-18", "3-20", "1-12", "2-12"), "edge_ngram {}", "the autocomplete analyzer setup chosen over the completion suggester",
         "Decision: autocomplete goes on {v} instead of the completion suggester — we need category filters in suggestions.", "the index size estimate came back fine"),
        ("pl", (4, 5, 6, 7), "fuzziness od {} znaków", "from which token length fuzzy matching applies",
         "Idziemy w {v} w górę, krótsze tokeny bez fuzzy — 'but' → 'bat' to była masakra.", "za dużo szumu na krótkich słowach"),
        ("pl", (30, 45, 60, 90), "cache autocomplete na {} s", "how long autocomplete responses are cached in the CDN",
         "Decyzja: {v} w CDN, dłużej nie, bo merch zmienia kampanie w ciągu dnia.", "merch i tak odświeża kampanie rzadziej"),
        ("en", (14, 21, 30, 45, 60), "gauss decay with scale {}d", "the decay function for the new-arrivals boost",
         "We'll use a {v} on created_at for the new-arrivals boost; the linear one punished everything older than a week.", "the category managers want new items visible longer"),
        ("pl", (10, 15, 20, 30), "MV odświeżane co {} min", "how often the lowest-30-day price view is refreshed",
         "W sprawie Omnibusa: najniższą cenę z 30 dni liczymy w ClickHousie, {v}, i wpychamy do indeksu partial update'em — storefront nic nie liczy.", "ClickHouse się nie wyrabiał"),
        ("en", (2, 3, 4, 5, 6, 7, 8, 9), "legacy_units_v{}", "the feature flag that keeps the old units parser around",
         "Let's keep the old units parser behind the `{v}` flag for a month instead of deleting it.", "that flag name already exists in the config service"),
        ("pl", (1, 2, 3), "number_of_replicas={}", "the replica count for the production index",
         "Zostajemy przy {v} na produkcyjnym indeksie, więcej to za dużo RAM-u na data nodach.", "policzyłem jeszcze raz heap na data nodach"),
        ("en", (10, 20, 50), "SAMPLE 1/{}", "the sampling used for the daily CTR report",
         "For the daily CTR report we go with {v} on search_events instead of full scans — the error stays under half a percent.", "the error bars were too wide"),
    )

    # ---- plans: value format with its number range, query, text ----------------------------------------------

    PLANS = (
        ("porównanie zero-results na top {} zapytaniach", (3, 40, 50), "what gets compared between the reindex and the alias switch in today's plan",
         "Plan na dziś: najpierw reindex do nowego indeksu z morfologikiem, potem {v}, a na końcu przepinamy alias, jeśli nic się nie posypie."),
        ("{}-day backfill of the click features", (14, 120, 1), "the first step of the retraining plan",
         "Here's the order: first a {v}, then we retrain on the fresh clicks, and after that we open the A/B at 10% traffic."),
        ("review z legalem w czwartek o 1{}:30", (0, 6, 1), "when the legal review of the Omnibus price display is",
         "Najpierw dopinamy testy PriceTag pod Omnibusa, potem {v}, a po tym wypuszczamy za flagą na 5% userów."),
        ("top {} reformulation pairs", (200, 3000, 1), "what gets mined from ClickHouse for the typo work",
         "Roadmap for the typo work: first we mine the {v} from ClickHouse, then build the spelling dictionary from them, and then the rewriter rule with a kill switch."),
        ("sprzątamy {} martwych synonimów", (20, 400, 1), "the cleanup step at the start of this week's plan",
         "Na ten tydzień: najpierw {v}, potem dokładamy shingle do name, a na końcu eval na judgmentach."),
        ("canary on {} rewriter pods", (2, 6, 1), "how the rewriter rollout starts",
         "Rollout plan: first a {v}, then half of the fleet, then everything if p99 holds for an hour."),
        ("zrzut judgmentów z {} sesji", (2000, 90000, 1), "the first thing planned for tomorrow morning",
         "Jutro tak: najpierw rano {v}, potem analiza kliknięć po pozycjach, a wieczorem decyzja, czy przedłużamy eksperyment."),
        ("hand-tag the {} worst zero-result queries", (20, 300, 1), "the first step of the zero-results fix",
         "For the zero-results fix: first we {v}, then add the fallback query with relaxed minimum_should_match, and only after that any synonym work."),
        ("kolumna query_hash z TTL {} dni", (7, 60, 1), "the first step in the ClickHouse migration order",
         "Kolejność: najpierw {v}, potem migracja dashboardów, a na końcu kasujemy stare surowe kolumny."),
        ("sample of {} SKUs", (100, 5000, 1), "what gets validated first in the supplier feed import",
         "The plan for the new supplier feed: first we validate their {v}, then map it to our taxonomy, and after that a dry-run reindex on staging."),
        ("{} par zapytanie–produkt", (300, 3000, 1), "how many query–product pairs get pulled for manual grading",
         "Najpierw wyciągamy {v} z ostatniego tygodnia, potem oceniamy je ręcznie w trzy osoby, a na koniec wrzucamy do judgmentów."),
        ("shadow run of {} hours", (6, 72, 1), "the first step before comparing the new ranker with the old one",
         "So: first a {v} for the new ranker, then compare NDCG on both, and only after that we talk to merch about pinning."),
    )

    FILES = (
        ("query-rewriter/src/rewrite/size_intent.rs", "Dopisz w rewriterze osobny moduł, który wyłapuje rozmiary butów w zapytaniu, np. 'buty do biegania 42'.", "the new rewriter module that detects shoe sizes in queries"),
        ("query-rewriter/src/rewrite/color_normalize.rs", "Potrzebujemy modułu, który sprowadza kolory do formy podstawowej: 'żółte', 'żółtych', 'zolte' → 'żółty'.", "the new rewriter module that normalizes colour words"),
        ("query-rewriter/src/rewrite/gender_intent.rs", "Add a rewriter rule that detects gender in the query ('damskie', 'męskie', 'dla chłopca') and turns it into a filter.", "the new rewriter module that turns gender words into a filter"),
        ("query-rewriter/src/rewrite/ean_lookup.rs", "Jak ktoś wkleja EAN do wyszukiwarki, to chcę od razu exact match po EAN — zrób na to osobny moduł.", "the new rewriter module for EAN lookups"),
        ("query-rewriter/src/rewrite/model_code.rs", "Write a module that keeps model codes like 'RS68A8840S9' or 'WH-1000XM5' intact instead of splitting them.", "the new rewriter module that keeps model codes intact"),
        ("query-rewriter/tests/fixtures/tire_size_cases.json", "Zrób fixture z przypadkami rozmiarów opon do testów units — 205/55 r16, 205/55r16, 205 55 16 itd.", "the new test fixture with tire-size cases"),
        ("storefront/src/components/OmnibusPrice/OmnibusPrice.tsx", "Potrzebny nowy komponent do ceny z 30 dni pod Omnibusa, osobno od PriceTag.", "the new storefront component showing the 30-day lowest price"),
        ("storefront/src/components/DidYouMean/DidYouMean.tsx", "Add a 'Czy chodziło Ci o…' component for the results page, fed from the rewriter's spelling suggestion.", "the new storefront component for spelling suggestions"),
        ("storefront/src/components/ZeroResultsHint/ZeroResultsHint.test.tsx", "Napisz testy do podpowiedzi przy zero wynikach, zanim ją ruszymy.", "the new test file for the zero-results hint"),
        ("ltr/features/price_position.py", "Dodaj feature z pozycją ceny w kategorii (percentyl), jako osobny plik w features.", "the new LTR feature file for the price percentile within a category"),
        ("ltr/features/query_category_match.py", "We need a feature for how well the query's predicted category matches the product's category — new file please.", "the new LTR feature file for query-category match"),
        ("opensearch/analysis/synonyms_pl_agd.txt", "Zrób osobny plik z synonimami dla AGD, nie mieszajmy z ogólnym.", "the new synonyms file for home appliances"),
        ("opensearch/analysis/synonyms_pl_zabawki.txt", "Separate synonyms file for toys, please — 'klocki' vs 'zestaw klocków' etc.", "the new synonyms file for toys"),
        ("clickhouse/migrations/«n»_zero_results_mv.sql", "Napisz migrację z materialized view na zero-results per godzina.", "the new ClickHouse migration with the hourly zero-results view"),
        ("clickhouse/migrations/«n»_query_hash_ttl.sql", "Migration for the hashed query column with a TTL on the raw one, please.", "the new ClickHouse migration adding the hashed query column"),
        ("ltr/configs/lambdamart_pl_fresh.yaml", "Zrób osobny config treningu z featurami świeżości, nie ruszaj głównego.", "the new training config with freshness features"),
        ("opensearch/templates/products-pl-autocomplete.json", "New index template for autocomplete, separate from products-pl.", "the new index template for autocomplete"),
    )

    # ---- errors: the value is a whole line of the tool's output ------------------------------------------------

    def e_panic(self) -> dict[str, Any]:
        r = self.rng
        test = r.choice(RS_TESTS)
        mod, short = test.split("::")[1], test.rsplit("::", 1)[1]
        v = f"thread '{test}' panicked at src/rewrite/{mod}.rs:{r.randint(40, 700)}:{r.choice((5, 9, 13, 17, 21))}:"
        path = f"query-rewriter/src/rewrite/{mod}.rs"
        return dict(value=v, tool="cargo", query=f"the panic in the rewriter test {short} of the {mod} module",
                    ask=r.choice(("odpal testy rewritera po tej zmianie", "run the rewriter tests after that change", "puść cargo test, zobaczymy")),
                    args={"subcommand": "test", "package": "query-rewriter"}, run=lambda s: self.out_cargo_test(s, fail=(test, v)),
                    explain=f"Jeden test czerwony:\n\n{v}\n\nAssert porównuje tokeny po rewrite — po zmianie kolejności reguł diacritics odpala się po synonimach, więc forma bez ogonków nie trafia w słownik.",
                    fix=("Przestawiam kolejność reguł.", "edit_file", {"path": path, "old_string": "rules: [Synonyms, Diacritics, Units]", "new_string": "rules: [Diacritics, Synonyms, Units]"},
                         lambda s: self.out_edit(path, "", "        rules: [Diacritics, Synonyms, Units],")),
                    rerun_args={"subcommand": "test", "package": "query-rewriter", "filter": f"rewrite::{mod}"},
                    rerun=lambda s: self.out_cargo_test(s, filt=f"rewrite::{mod}"),
                    done=f"Po zmianie kolejności `{short}` przechodzi, cały moduł {mod} zielony.",
                    leave="Ten test zależy od kolejności iteracji HashMapy i bywa flaky — nie od naszej zmiany. Zostawiam, dopisałem do listy.")

    def e_compile(self) -> dict[str, Any]:
        r = self.rng
        m, ty, mod = r.choice(RS_METHODS), r.choice(RS_TYPES), r.choice(RS_MODS)
        ln, col = r.randint(30, 600), r.randint(12, 40)
        v = f"error[E0599]: no method named `{m}` found for struct `{ty}` in the current scope"
        deps = ("proc-macro2 v1.0.89", "serde v1.0.214", "serde_json v1.0.132", "tokio v1.41.0", "hyper v1.5.0",
                "reqwest v0.12.9", "tracing v0.1.40", "opensearch v2.2.0", "fst v0.4.7", "regex v1.11.1", "axum v0.7.7")

        def run(s: int) -> str:
            warn = self.out_cargo_clippy(max(400, s - 1200)).splitlines()[1:-2]
            return "\n".join([f"   Compiling {d}" for d in deps] + ["   Compiling query-rewriter v0.14.3 (/home/dev/kramik/search/query-rewriter)"] + warn + [
                v, f"   --> src/rewrite/{mod}.rs:{ln}:{col}", "    |", f"{ln:<4}|         let out = tok.{m}(&ctx.stemmer);",
                f"    |                       {'^' * len(m)} method not found in `{ty}`", "",
                "For more information about this error, try `rustc --explain E0599`.",
                "error: could not compile `query-rewriter` (lib) due to 1 previous error; 4 warnings emitted"])
        path = f"query-rewriter/src/rewrite/{mod}.rs"
        return dict(value=v, tool="cargo", query=f"the compile error about the missing {m} method",
                    ask=r.choice(("zbuduj rewritera", "build the rewriter", "cargo build przechodzi?")),
                    args={"subcommand": "build", "package": "query-rewriter"}, run=run,
                    explain=f"Nie kompiluje się:\n\n{v}\n\nTa metoda była w gałęzi z refaktorem tokenizera, której jeszcze nie ma na mainie.",
                    fix=("Wracam do istniejącego API.", "edit_file", {"path": path, "old_string": f"tok.{m}(&ctx.stemmer)", "new_string": "ctx.stemmer.stem(&tok.text)"},
                         lambda s: self.out_edit(path, "", "        let out = ctx.stemmer.stem(&tok.text);")),
                    rerun_args={"subcommand": "build", "package": "query-rewriter"},
                    rerun=lambda s: "   Compiling query-rewriter v0.14.3 (/home/dev/kramik/search/query-rewriter)\n" + "\n".join(self.out_cargo_clippy(s).splitlines()[1:]),
                    done="Buduje się, zostały tylko warningi clippy.",
                    leave="To wymaga refaktoru tokenizera z osobnego brancha; zostawiam do decyzji, czy go mergujemy.")

    def e_jest(self) -> dict[str, Any]:
        r = self.rng
        suite, verb, detail = r.choice((
            ("Suggestions", "renders suggestions", "    expect(received).toHaveLength(expected)\n\n    Expected length: 5\n    Received length: 0\n    Received array:  []"),
            ("SearchBox", "keeps the typed query", "    expect(element).toHaveValue(expected)\n\n    Expected the element to have value:\n      {q}\n    Received:\n      "),
            ("PriceTag", "shows the 30-day low price", "    expect(received).toHaveTextContent()\n\n    Expected element to have text content:\n      Najniższa cena z 30 dni\n    Received:\n      Cena regularna"),
            ("ZeroResults", "suggests a spelling fix", "    expect(received).toBeInTheDocument()\n\n    received value must be an HTMLElement or an SVGElement.\n    Received has value: null"),
            ("Facets", "renders facets", "    expect(received).toEqual(expected) // deep equality\n\n    - Expected  - 1\n    + Received  + 1\n\n    -   \"Obuwie\",\n    +   \"obuwie\",")))
        q = self.f_query()
        v = f"● {suite} › {verb} for \"{q}\""
        path = f"storefront/src/components/{suite}/{suite}.tsx"
        return dict(value=v, tool="jest", query=f"the failing {suite} test for the query '{q}'",
                    ask=r.choice(("odpal testy storefrontu", "run the storefront tests", "a jest?")),
                    args={"project": "storefront", "args": ["--ci", "src/components"]},
                    run=lambda s: self.out_jest(s, (suite, v, detail.replace("{q}", q))),
                    explain=f"Jeden czerwony:\n\n{v}\n\nKomponent czyta pole z odpowiedzi API pod starą nazwą, a mock w teście ma już nową.",
                    fix=("Poprawiam komponent.", "edit_file", {"path": path, "old_string": "data?.items", "new_string": "data?.results"},
                         lambda s: self.out_edit(path, "", "  if (!data?.results.length) return null;")),
                    rerun_args={"project": "storefront", "args": ["--ci", f"src/components/{suite}"]}, rerun=lambda s: self.out_jest(s),
                    done=f"{suite} zielony po poprawce, reszta suite'ów bez zmian.",
                    leave="To wynika ze zmiany kontraktu API, którą robi drugi zespół — nie ruszam, dopóki nie wypuszczą backendu.")

    def e_chmem(self) -> dict[str, Any]:
        r = self.rng
        what = r.choice(("reformulation pairs over 90 days", "per-session click paths", "query × SKU click matrix", "hourly zero-results by category"))
        mx = r.choice((9.31, 18.63, 27.94))
        v = (f"Code: 241. DB::Exception: Memory limit (for query) exceeded: would use {mx + r.uniform(0.01, 0.5):.2f} GiB (attempt to allocate chunk of "
             f"{r.randint(1_000_000, 9_000_000)} bytes), maximum: {mx:.2f} GiB.: While executing AggregatingTransform. (MEMORY_LIMIT_EXCEEDED)")
        sql = "SELECT q1, q2, count() AS pairs FROM clicks.reformulations WHERE event_date >= today() - 90 GROUP BY q1, q2 ORDER BY pairs DESC LIMIT 500"
        path = "analytics/queries/reformulations.sql"
        return dict(value=v, tool="clickhouse", query=f"the ClickHouse memory error on the {what} query",
                    ask=f"policz {what}" if r.random() < 0.5 else f"compute the {what}", args={"query": sql},
                    run=lambda s: f"Query id: {self.uuid()}\n\nReceived exception from server (version 24.8.4):\n{v}\n\n0 rows in set. Elapsed: {r.uniform(5, 40):.3f} sec. Processed {r.uniform(100, 900):.2f} million rows, {r.uniform(5, 40):.2f} GB.",
                    explain=f"ClickHouse odmówił:\n\n{v}\n\nGROUP BY po dwóch stringach na 90 dniach nie mieści się w limicie na zapytanie.",
                    fix=("Dokładam zewnętrzny GROUP BY.", "edit_file", {"path": path, "old_string": "GROUP BY q1, q2", "new_string": "GROUP BY q1, q2\nSETTINGS max_bytes_before_external_group_by = 4000000000"},
                         lambda s: self.out_edit(path, "", "SETTINGS max_bytes_before_external_group_by = 4000000000")),
                    rerun_args={"query": sql + " SETTINGS max_bytes_before_external_group_by = 4000000000"},
                    rerun=lambda s: self.out_clickhouse(s, "reform")[1], done="Z agregacją na dysku przeszło, wyniki powyżej.",
                    leave="Bez zgody na większy limit albo agregację na dysku tego nie policzę na całości; mogę zrobić na próbce.")

    def e_chcol(self) -> dict[str, Any]:
        r = self.rng
        col, n = r.choice(("is_zero_result", "clicked_pos", "session_len", "results_cnt", "zero_flag")), r.randint(2, 60)
        v = (f"Code: 47. DB::Exception: Unknown expression identifier `{col}` in scope SELECT query_norm, countIf({col}) AS zr "
             f"FROM clicks.search_events WHERE event_date >= today() - {n} GROUP BY query_norm. (UNKNOWN_IDENTIFIER)")
        path = "analytics/queries/zero_results_daily.sql"
        return dict(value=v, tool="clickhouse", query=f"the ClickHouse error about the unknown column {col}",
                    ask=f"puść zero-results daily za ostatnie {n} dni", args={"query": f"SELECT query_norm, countIf({col}) AS zr FROM clicks.search_events WHERE event_date >= today() - {n} GROUP BY query_norm"},
                    run=lambda s: f"Query id: {self.uuid()}\n\nReceived exception from server (version 24.8.4):\n{v}\n\n0 rows in set. Elapsed: 0.004 sec.",
                    explain=f"Błąd:\n\n{v}\n\nTej kolumny nie ma w search_events — była w starej wersji schematu.",
                    fix=("Podmieniam na warunek na results_total.", "edit_file", {"path": path, "old_string": f"countIf({col})", "new_string": "countIf(results_total = 0)"},
                         lambda s: self.out_edit(path, "", "    countIf(results_total = 0) AS zero_results,")),
                    rerun_args={"query": f"SELECT query_norm, countIf(results_total = 0) AS zr FROM clicks.search_events WHERE event_date >= today() - {n} GROUP BY query_norm"},
                    rerun=lambda s: self.out_clickhouse(s, "zero")[1], done="Teraz działa, liczby powyżej.",
                    leave="Zostawiam — to zapytanie z dashboardu data teamu, nie nasze; zgłoszę im.")

    def e_keyerror(self) -> dict[str, Any]:
        r = self.rng
        name = r.choice(("add2cart_rate", "ctr_decayed", "dwell_time", "return_rate", "price_pctl", "query_freq"))
        feat = f"{name}_{r.randint(3, 90)}d"
        v = f"KeyError: '{feat}'"
        path = "ltr/configs/lambdamart_pl.yaml"
        return dict(value=v, tool="ltr_train", query=f"the KeyError that stopped the training run on the {name} feature",
                    ask="puść trening z nowymi feature'ami" if r.random() < 0.5 else "run the training with the new features",
                    args={"config": path, "judgments": "s3://kramik-ltr/judgments/pl-2026-10/", "rounds": 400},
                    run=lambda s: self.out_ltr(s, fail=[v]),
                    explain=f"Trening padł na budowie macierzy:\n\n{v}\n\nTego feature'a nie ma jeszcze w feature store — jest w configu, ale pipeline go nie liczy.",
                    fix=("Usuwam go z configu na razie.", "edit_file", {"path": path, "old_string": f"  - {feat}\n", "new_string": ""},
                         lambda s: self.out_edit(path, "", "  - delivery_days")),
                    rerun_args={"config": path, "judgments": "s3://kramik-ltr/judgments/pl-2026-10/", "rounds": 400},
                    rerun=lambda s: self.out_ltr(s), done="Bez tego feature'a trening przeszedł, wyniki powyżej.",
                    leave="Trzeba najpierw dorobić ten feature w pipeline; bez tego nie ruszę treningu.")

    def e_label(self) -> dict[str, Any]:
        r = self.rng
        n = r.randint(32, 99)
        v = f"lightgbm.basic.LightGBMError: Label {n} is not less than the number of label mappings (31)"
        path = "ltr/train.py"

        def run(s: int) -> str:
            head = self.out_ltr(max(600, s - 900)).splitlines()[:6]
            return "\n".join(head + [f"[LightGBM] [Fatal] Label {n} is not less than the number of label mappings (31)",
                                     "Traceback (most recent call last):", '  File "/app/ltr/train.py", line 221, in <module>', "    main()",
                                     '  File "/app/ltr/train.py", line 203, in main', "    model = lgb.train(params, train_set, num_boost_round=cfg.rounds)",
                                     '  File "/usr/local/lib/python3.11/site-packages/lightgbm/basic.py", line 263, in _safe_call',
                                     "    raise LightGBMError(_LIB.LGBM_GetLastError().decode('utf-8'))", v])
        return dict(value=v, tool="ltr_train", query=f"the LightGBM error about relevance label {n}",
                    ask="puść trening na judgmentach z nowego źródła", args={"config": "ltr/configs/lambdamart_pl.yaml", "judgments": "s3://kramik-ltr/judgments/pl-2026-11-annot/", "rounds": 400},
                    run=run, explain=f"LightGBM odrzucił etykiety:\n\n{v}\n\nNowe judgmenty mają oceny w skali 0–100 zamiast 0–4.",
                    fix=("Przeskalowuję oceny przy ładowaniu.", "edit_file", {"path": path, "old_string": 'df["label"] = df["grade"].astype(int)', "new_string": 'df["label"] = np.clip(np.round(df["grade"] / 25), 0, 4).astype(int)'},
                         lambda s: self.out_edit(path, "", '    df["label"] = np.clip(np.round(df["grade"] / 25), 0, 4).astype(int)')),
                    rerun_args={"config": "ltr/configs/lambdamart_pl.yaml", "judgments": "s3://kramik-ltr/judgments/pl-2026-11-annot/", "rounds": 400},
                    rerun=lambda s: self.out_ltr(s), done="Po przeskalowaniu trening przeszedł.",
                    leave="Nie wiem, jak ten zespół mapuje oceny na 0–4 — zapytaj ich, zanim coś przeskaluję.")

    def e_k8s(self) -> dict[str, Any]:
        r = self.rng
        k = r.randint(1, 3)
        v = f"{self.stamps(1)[0]} ERROR qrw::opensearch::client: request to os-krk-coord-0{k}:9200 failed after 3 retries: operation timed out ({r.randint(800, 3000)}ms)"
        cmd = {"command": "kubectl -n search-prod logs deploy/query-rewriter --since=10m | tail -n 400"}
        path = "query-rewriter/config/prod.toml"
        return dict(value=v, tool="shell", query=f"the rewriter's timeout error against coordinator node 0{k}",
                    ask="coś sypie 503 na wyszukiwarce, zerknij w logi rewritera", args=cmd, run=lambda s: self.out_logs(s, inject=v),
                    explain=f"W logach:\n\n{v}\n\nCoord 0{k} odpowiada wolniej niż nasz timeout, a po trzech próbach rewriter zwraca 503.",
                    fix=("Podnoszę timeout i zmniejszam liczbę prób.", "edit_file", {"path": path, "old_string": "timeout_ms = 800\nconnect_timeout_ms = 150\nretries = 2", "new_string": "timeout_ms = 1200\nconnect_timeout_ms = 150\nretries = 1"},
                         lambda s: self.out_edit(path, "", "timeout_ms = 1200\nconnect_timeout_ms = 150\nretries = 1")),
                    rerun_args=cmd, rerun=lambda s: self.out_logs(s), done="Po zmianie i restarcie podów w logach nie ma już timeoutów.",
                    leave="Problem jest po stronie klastra (GC na coordzie), nie rewritera — zgłaszam platformie, nic nie zmieniam.")

    def e_osreq(self) -> dict[str, Any]:
        r = self.rng
        field, sku = r.choice(("price", "lowest_price_30d")), str(r.randint(40_000_000, 99_999_999))
        val = f"{r.randint(19, 4999)},{r.randint(0, 99):02d} zł"
        v = (f"opensearchpy.exceptions.RequestError: RequestError(400, 'mapper_parsing_exception', \"failed to parse field [{field}] of type "
             f"[scaled_float] in document with id '{sku}'. Preview of field's value: '{val}'\")")
        args = {"method": "PUT", "path": f"/products-pl-staging/_doc/{sku}?pipeline=supplier-feed", "body": {"sku": sku, field: val}}
        path = "opensearch/ingest/supplier-feed.json"
        return dict(value=v, tool="opensearch", query=f"the indexing error for the supplier's product {sku}",
                    ask=f"zaindeksuj testowo jeden produkt z nowego feedu na stagingu, SKU {sku}", args=args,
                    run=lambda s: "\n".join(["Traceback (most recent call last):", '  File "/opt/tools/os_call.py", line 48, in <module>',
                                             "    resp = client.transport.perform_request(args.method, args.path, body=body)",
                                             '  File "/usr/local/lib/python3.11/site-packages/opensearchpy/transport.py", line 457, in perform_request',
                                             "    raise e", v]),
                    explain=f"Indeksowanie padło:\n\n{v}\n\nFeed wysyła cenę z przecinkiem i walutą, a mapping oczekuje liczby.",
                    fix=("Dokładam normalizację ceny w pipeline.", "edit_file", {"path": path, "old_string": '"processors": [', "new_string": '"processors": [\n    { "gsub": { "field": "' + field + '", "pattern": "[^0-9,]", "replacement": "" } },\n    { "gsub": { "field": "' + field + '", "pattern": ",", "replacement": "." } },'},
                         lambda s: self.out_edit(path, "", '    { "gsub": { "field": "' + field + '", "pattern": ",", "replacement": "." } },')),
                    rerun_args=args, rerun=lambda s: _pj({"_index": "products-pl-staging", "_id": sku, "_version": 1, "result": "created",
                                                          "_shards": {"total": 2, "successful": 2, "failed": 0}, "_seq_no": r.randint(1000, 90000), "_primary_term": 1}),
                    done="Po normalizacji dokument się zaindeksował.",
                    leave="Spec feedu mówi wprost, że cena ma być bez waluty — wolę, żeby dostawca to poprawił, niż żebyśmy łatali.")

    def e_tsc(self) -> dict[str, Any]:
        r = self.rng
        suite = r.choice(("PriceTag", "Suggestions", "ResultsGrid", "Facets"))
        prop, ty = r.choice((("lowestPrice30d", "PriceInfo"), ("referencePrice", "PriceInfo"), ("promoLabel", "SearchHit"),
                             ("unitPrice", "SearchHit"), ("categoryHint", "SuggestItem")))
        ln, col = r.randint(12, 160), r.randint(5, 40)
        v = f"src/components/{suite}/{suite}.tsx:{ln}:{col} - error TS2339: Property '{prop}' does not exist on type '{ty}'."
        path = "storefront/src/lib/search/types.ts"
        return dict(value=v, tool="jest", query=f"the TypeScript error about the {prop} property",
                    ask="odpal testy storefrontu po zmianie typów", args={"project": "storefront", "args": ["--ci"]},
                    run=lambda s: "\n".join(["> storefront@3.18.0 test", "> tsc --noEmit && jest --ci", "", v, "",
                                             f"{ln} {' ' * 4}const ref = price.{prop};", f"{' ' * (len(str(ln)) + 1 + col)}{'~' * len(prop)}", "", "",
                                             f"Found 1 error in src/components/{suite}/{suite}.tsx:{ln}", ""]),
                    explain=f"Testy nie ruszyły, bo tsc:\n\n{v}\n\nTyp nie ma jeszcze tego pola — backend je dodał, my nie.",
                    fix=("Dodaję pole do typu.", "edit_file", {"path": path, "old_string": f"export interface {ty} {{", "new_string": f"export interface {ty} {{\n  {prop}?: number;"},
                         lambda s: self.out_edit(path, "", f"  {prop}?: number;")),
                    rerun_args={"project": "storefront", "args": ["--ci"]}, rerun=lambda s: self.out_jest(s),
                    done="Typy się zgadzają, wszystkie suite'y zielone.",
                    leave="Czekam aż backend opublikuje nowy kontrakt w pakiecie typów; ręcznie nie dopisuję.")

    def e_ab(self) -> dict[str, Any]:
        exp = self.f_exp()
        v = f"ERROR: no exposures for variant 'treatment' in {exp} since 2026-11-{self.now()[0]:02d} 06:00 (assignment service returned 503)"
        return dict(value=v, tool="ab_dashboard", query=f"the exposure error in {exp}",
                    ask=f"pokaż {exp}, coś mi się nie zgadza w liczbach", args={"experiment": exp, "view": "summary"},
                    run=lambda s: self.out_ab(s, exp, inject=v),
                    explain=f"Dashboard mówi wprost:\n\n{v}\n\nOd rana wariant B nie dostaje ruchu, więc dzisiejsze dane są bezużyteczne.",
                    fix=("Restartuję assignment service.", "shell", {"command": "kubectl -n experiments rollout restart deploy/assignment && kubectl -n experiments rollout status deploy/assignment"},
                         lambda s: "deployment.apps/assignment restarted\nWaiting for deployment \"assignment\" rollout to finish: 1 of 3 updated replicas are available...\n"
                                   "Waiting for deployment \"assignment\" rollout to finish: 2 of 3 updated replicas are available...\ndeployment \"assignment\" successfully rolled out"),
                    rerun_args={"experiment": exp, "view": "summary"}, rerun=lambda s: self.out_ab(s, exp),
                    done="Ekspozycje wróciły na oba warianty.", leave="Assignment service należy do platformy eksperymentów — zgłosiłem im, sam nie restartuję.")

    # ---- findings: a value within one line of a tool's output, explained next ---------------------------------

    def f_explain(self) -> dict[str, Any]:
        r = self.rng
        q, term, docid, sku = self.f_query(), r.choice(BRANDS), r.randint(10000, 999999), self.f_sku()
        v = f"weight(brand.text:{term} in {docid})"
        return dict(value=v, tool="opensearch", query=f"which term match dominates the explain score of the top hit for '{q}'",
                    ask=f"Czemu na '{q}' na pierwszym miejscu jest {term.capitalize()}? Zrób explain dla top1.",
                    args={"method": "GET", "path": f"/products-pl/_explain/{sku}", "body": {"query": json.loads(self.search_body(q))["query"]}},
                    run=lambda s: self.out_os_explain(s, sku, q, inject=("brand.text", term, docid)),
                    explain=f"Root cause jest w explainie: klauzula `{v}` daje ponad połowę score'u — brand.text ma boost 2, a przy krótkim polu BM25 mocno go podbija przez dl/avgdl. Dopasowanie w name.morfologik jest słabsze.")

    def f_zr(self) -> dict[str, Any]:
        r = self.rng
        q, x = self.f_query(), r.uniform(0.02, 0.4)
        v = f"zero_results_share_7d: {x:.6f}"
        sql = (f"SELECT countIf(results_total = 0) / count() AS zero_results_share_7d, count() AS sample_rows, 7 AS window_days "
               f"FROM clicks.search_events WHERE query_norm = '{q.translate(FOLD)}' AND event_date >= today() - 7 FORMAT Vertical")
        return dict(value=v, tool="clickhouse", query=f"the measured 7-day zero-results share for '{q}'",
                    ask=f"ile procent wyszukiwań '{q}' kończy się zerem wyników z ostatnich 7 dni?", args={"query": sql},
                    run=lambda s: self.out_clickhouse(s, "zero", inject=("zero_results_share_7d", f"{x:.6f}"))[1],
                    explain=f"Wynik: `{v}` — czyli ok. {x * 100:.1f}% wyszukiwań '{q}' kończy się zerem. Średnia dla wszystkich zapytań to ~3%, więc to realny problem, nie szum.")

    def f_ndcg(self) -> dict[str, Any]:
        r = self.rng
        x, feat = r.uniform(0.45, 0.6), r.choice(FEATURES)
        v = f"NDCG@10={x:.4f}"
        line = f"{self.stamps(1, ' ')[0][:-4]} INFO  holdout: {v} NDCG@5={x - r.uniform(0.02, 0.05):.4f} MRR={r.uniform(0.5, 0.7):.4f} (best_iter={r.randint(80, 600)})"
        return dict(value=v, tool="ltr_train", query=f"the holdout NDCG@10 of the model retrained with {feat}",
                    ask=f"puść trening z {feat} i eval na holdoucie", args={"config": "ltr/configs/lambdamart_pl.yaml", "add_features": [feat], "eval": "holdout"},
                    run=lambda s: self.out_ltr(s, summary=line),
                    explain=f"Holdout: {v}, czyli ok. +{r.uniform(0.3, 2):.1f} pkt względem produkcyjnego modelu. {feat} jest w top 5 feature'ów po gain.")

    def f_timeout(self) -> dict[str, Any]:
        r = self.rng
        v = f"request_timeout_ms = {r.randint(120, 2500)}"
        path = "query-rewriter/config/prod.toml"

        def run(s: int) -> str:
            lines = self.config_text(path, s).replace("connect_timeout_ms = 150", f"connect_timeout_ms = 150\n{v}").splitlines()
            return "\n".join(f"{i:>6}\t{x}" for i, x in enumerate(lines, 1))
        return dict(value=v, tool="read_file", query="the OpenSearch request timeout found in the rewriter's production config",
                    ask="czemu rewriter tak szybko się poddaje przy wolnym OpenSearchu? zerknij w config prod", args={"path": path}, run=run,
                    explain=f"Jest: w sekcji [opensearch] siedzi `{v}` — to nadpisuje timeout_ms dla zapytań search, więc przy wolnym coordzie klient odpuszcza po tym czasie.")

    def f_srm(self) -> dict[str, Any]:
        r = self.rng
        exp, a = self.f_exp(), r.randint(300000, 900000)
        v = f"observed {a} / {int(a * r.uniform(0.95, 0.98))} users"
        return dict(value=v, tool="ab_dashboard", query=f"the per-arm user counts that revealed the sample ratio mismatch in {exp}",
                    ask=f"czemu wyniki {exp} skaczą z dnia na dzień?", args={"experiment": exp, "view": "summary"},
                    run=lambda s: self.out_ab(s, exp, inject=f"SRM check: FAIL — expected 50/50, {v} (p < 0.0001)"),
                    explain=f"Root cause: sample ratio mismatch — {v}, przy 50/50 to p<0.0001. Dopóki jest SRM, żadnej metryce z {exp} nie można ufać; podejrzewam, że bot filter wycina więcej ruchu z wariantu B.")

    def f_cycle(self) -> dict[str, Any]:
        r = self.rng
        a, b = r.choice(SYN_PAIRS)
        v = f"synonym cycle detected: {a} -> {b} -> {a}"
        line = f"{self.stamps(1)[0]} WARN qrw::rewrite::synonyms: {v} (rule #{r.randint(100, 4000)}), expansion stopped"
        return dict(value=v, tool="shell", query=f"the synonym cycle found in the rewriter logs for '{a}'",
                    ask=f"czemu '{a}' generuje tyle klauzul? sprawdź logi rewritera", args={"command": "kubectl -n search-prod logs deploy/query-rewriter --since=30m | tail -n 400"},
                    run=lambda s: self.out_logs(s, inject=line),
                    explain=f"Jest w logach: `{v}` — reguły są dwukierunkowe i się zapętlają, rewriter przerywa rozwinięcie w połowie, stąd dziwne zapytanie.")

    def f_refresh(self) -> dict[str, Any]:
        r = self.rng
        v = f"\"refresh_interval\" : \"{r.choice([x for x in range(31, 120) if x % 10])}s\""
        return dict(value=v, tool="opensearch", query="the refresh interval found on the production index",
                    ask="czemu nowe produkty pojawiają się w wynikach z takim opóźnieniem? sprawdź settings indeksu",
                    args={"method": "GET", "path": "/products-pl/_settings?pretty"}, run=lambda s: self.out_os_settings(s, inject=v),
                    explain=f"Znalazłem: w settings produkcyjnego indeksu jest {v} — ktoś zostawił wartość z reindexu. Stąd opóźnienie widoczności nowych ofert.")

    def f_p95(self) -> dict[str, Any]:
        r = self.rng
        x = r.uniform(40, 400)
        v = f"p95_rewrite_ms: {x:.2f}"
        return dict(value=v, tool="clickhouse", query="the measured p95 latency of the rewriter itself over the last day",
                    ask="jaka jest p95 samego rewritera z ostatniej doby?",
                    args={"query": "SELECT quantile(0.95)(rewrite_ms) AS p95_rewrite_ms, count() AS sample_rows, 1 AS window_days FROM clicks.search_events WHERE ts >= now() - INTERVAL 1 DAY FORMAT Vertical"},
                    run=lambda s: self.out_clickhouse(s, "latency", inject=("p95_rewrite_ms", f"{x:.2f}"))[1],
                    explain=f"Z logów: `{v}`. To tylko część całej latencji wyszukiwania — resztę zjada OpenSearch i rescore.")

    def f_gain(self) -> dict[str, Any]:
        r = self.rng
        feat, share = r.choice(FEATURES), r.uniform(30, 70)
        v = f"'{feat}' has {share:.1f}% of total gain"
        line = f"{self.stamps(1, ' ')[0][:-4]} WARNING feature {v} — possible leakage"
        return dict(value=v, tool="ltr_train", query="which LTR feature takes a suspicious share of the total gain in the importance report",
                    ask="puść trening i pokaż feature importance", args={"config": "ltr/configs/lambdamart_pl.yaml", "report": "importance"},
                    run=lambda s: self.out_ltr(s, extra=line),
                    explain=f"Uwaga na ostrzeżenie: {v}. Żaden feature nie powinien mieć takiego udziału — to wygląda na leak (feature liczony po kliknięciu).")

    def f_disk(self) -> dict[str, Any]:
        r = self.rng
        y, node, idx = r.uniform(5, 60), self.f_node(), self.f_index()
        v = f"actual free: [{y:.1f}gb]"

        def run(s: int) -> str:
            decisions = []
            for k in range(1, 10):
                nm = f"os-krk-data-{k:02d}"
                if nm == node or (k == 1 and not node.startswith("os-krk-data")):
                    expl = (f"the node is above the high watermark cluster setting [cluster.routing.allocation.disk.watermark.high=90%], "
                            f"having less than the minimum required [{y + r.uniform(10, 40):.1f}gb] free space, {v}")
                else:
                    expl = "a copy of this shard is already allocated to this node [[products-pl][3], node[" + self.hexs(22) + "], [P], s[STARTED], a[id=" + self.hexs(22) + "]]"
                decisions.append({"node_id": self.hexs(22), "node_name": nm, "transport_address": f"10.40.{r.randint(1, 9)}.{r.randint(10, 250)}:9300",
                                  "node_decision": "no", "deciders": [{"decider": "disk_threshold" if "watermark" in expl else "same_shard", "decision": "NO", "explanation": expl}]})
            return _pj({"index": idx, "shard": 3, "primary": False, "current_state": "unassigned",
                        "unassigned_info": {"reason": "NODE_LEFT", "at": self.stamps(1)[0], "last_allocation_status": "no_attempt"},
                        "can_allocate": "no", "allocate_explanation": "cannot allocate because allocation is not permitted to any of the nodes",
                        "node_allocation_decisions": decisions})
        return dict(value=v, tool="opensearch", query="how much disk was actually free on the node that refused the replica",
                    ask="czemu replika wisi jako unassigned? zrób allocation explain", args={"method": "GET", "path": "/_cluster/allocation/explain", "body": {"index": idx, "shard": 3, "primary": False}},
                    run=run, explain=f"Powód: na jednym z data nodów jest {v} — poniżej high watermark, więc OpenSearch nie alokuje tam repliki; pozostałe nody odpadają przez same_shard.")

    def f_reform(self) -> dict[str, Any]:
        r = self.rng
        q, x = self.f_query(), r.uniform(0.05, 0.45)
        v = f"reformulation_rate: {x:.6f}"
        return dict(value=v, tool="clickhouse", query=f"the measured reformulation rate after searching '{q}'",
                    ask=f"jak często ludzie poprawiają zapytanie po '{q}'?",
                    args={"query": f"SELECT countIf(next_query != '') / count() AS reformulation_rate, count() AS sample_rows, 14 AS window_days FROM clicks.sessions_flat WHERE query_norm = '{q.translate(FOLD)}' FORMAT Vertical"},
                    run=lambda s: self.out_clickhouse(s, "reform", inject=("reformulation_rate", f"{x:.6f}"))[1],
                    explain=f"`{v}` — czyli mniej więcej co {1 / x:.0f}. wyszukiwanie '{q}' kończy się poprawieniem zapytania. Najczęstsze pary reformulacji są w tabeli.")

    def f_lift(self) -> dict[str, Any]:
        r = self.rng
        exp, x = self.f_exp(), r.uniform(0.8, 4.5)
        v = f"add-to-cart lift {x:+.2f}%"
        return dict(value=v, tool="ab_dashboard", query=f"the add-to-cart lift measured in {exp}",
                    ask=f"jak wygląda primary metric w {exp}?", args={"experiment": exp, "view": "primary"},
                    run=lambda s: self.out_ab(s, exp, inject=f"Primary metric: {v} (95% CI {x - r.uniform(0.3, 0.7):+.2f}% .. {x + r.uniform(0.3, 0.7):+.2f}%)"),
                    explain=f"W {exp}: {v}, przedział ufności nie przechodzi przez zero — pierwszy istotny wynik dla tego rankera.")

    # ---- identifiers: said by the user or printed by a tool ------------------------------------------------------

    def u_index(self) -> dict[str, Any]:
        v = f"products-pl-2026.{self.rng.randint(10, 12)}.{self.rng.randint(1, 28):02d}"
        return dict(value=v, query="the test index with the new analyzer",
                    text=f"Testowy indeks z nowym analyzerem to {v}, alias jeszcze na niego nie wskazuje — wszystkie próby rób tam.",
                    ack=f"Ok, próby na {v}, alias zostaje bez zmian.")

    def u_exp(self) -> dict[str, Any]:
        v = f"EXP-{self.rng.randint(2000, 2999)}"
        return dict(value=v, query="the experiment id of the new ranker test",
                    text=f"The new ranker experiment got id {v}, the PM already sees it on the dashboard.", ack=f"Noted, {v} is the ranker experiment.")

    def u_ticket(self) -> dict[str, Any]:
        v = f"SRCH-{self.rng.randint(3000, 3999)}"
        return dict(value=v, query="the ticket the Omnibus work is tracked under",
                    text=f"Całą robotę pod Omnibusa podpinaj pod {v}, legal obserwuje ten ticket.", ack=f"Jasne, commity i PR-y z Omnibusem będą z {v}.")

    def u_sku(self) -> dict[str, Any]:
        v = str(self.rng.randint(40_000_000, 99_999_999))
        return dict(value=v, query="the SKU used as the example of a product falling out of the top 20",
                    text=f"Weź jako przykład SKU {v} — kalosze Hunter, zawsze wypadają z top 20 na 'kalosze damskie'.", ack=f"Ok, {v} jako przykład do explaina.")

    def u_grafana(self) -> dict[str, Any]:
        v = f"https://grafana.kramik.internal/d/{self.hexs(8)}/search-latency"
        return dict(value=v, query="where the search latency dashboard lives",
                    text=f"Latency dashboard is {v} if you need it, the p99 panel is the one that matters.", ack="Thanks, I'll check the p99 panel there after each deploy.")

    def u_seller(self) -> dict[str, Any]:
        v = f"SLR-{self.rng.randint(100000, 999999)}"
        return dict(value=v, query="the seller whose feed sends EANs as numbers",
                    text=f"Chodzi o sprzedawcę {v}, to on wrzuca feed z EAN-ami jako liczby.", ack=f"Ok, przejrzę importy od {v}.")

    def t_task(self) -> dict[str, Any]:
        r = self.rng
        v = "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(22)) + f":{r.randint(100000, 9999999)}"
        return dict(value=v, tool="opensearch", query="the task id of the background reindex", ask="odpal reindex do nowego indeksu w tle, nie czekaj na koniec",
                    args={"method": "POST", "path": "/_reindex?wait_for_completion=false&slices=auto",
                          "body": {"source": {"index": self.f_index()}, "dest": {"index": self.f_index()}}},
                    run=lambda s: _pj({"task": v}), say=f"Reindex leci w tle, task id `{v}`. Postęp sprawdzę przez _tasks.")

    def t_newexp(self) -> dict[str, Any]:
        r = self.rng
        v = f"EXP-{r.randint(2000, 2999)}"
        return dict(value=v, tool="ab_dashboard", query="the id of the experiment created for the autocomplete change",
                    ask="załóż eksperyment dla nowego autocomplete, 50/50, 21 dni",
                    args={"action": "create", "name": "autocomplete-edge-ngram", "allocation": "50/50", "duration_days": 21, "primary_metric": "search_ctr"},
                    run=lambda s: f"Created experiment {v} \"autocomplete-edge-ngram vs control\" (starts tomorrow 06:00 CET)\n\n" + self.out_ab(s, v),
                    say=f"Eksperyment założony: {v}, start jutro o 6:00.")

    def t_qid(self) -> dict[str, Any]:
        r = self.rng
        v = self.uuid()

        def run(s: int) -> str:
            rows = [[v, str(r.randint(40000, 90000)), str(r.randint(10**9, 9 * 10**9)), f"{r.uniform(5, 9):.2f} GiB", "SELECT s.session_id, groupArray(q) FROM clicks.searc"]]
            while len(rows) < max(5, min(60, s // 190)):
                rows.append([self.uuid(), str(r.randint(200, 5000)), str(r.randint(10**5, 10**9)), f"{r.uniform(10, 900):.2f} MiB", "SELECT query_norm, count() FROM clicks.search_events WH"])
            return f"Query id: {self.uuid()}\n\n" + _ch_table(["query_id", "query_duration_ms", "read_rows", "mem", "q"], rows, {1, 2}) + f"\n\n{len(rows)} rows in set. Elapsed: 0.231 sec."
        return dict(value=v, tool="clickhouse", query="the query id of the slowest ClickHouse query of the day",
                    ask="które zapytanie w ClickHousie tak muli od rana? znajdź w system.query_log",
                    args={"query": "SELECT query_id, query_duration_ms, read_rows, formatReadableSize(memory_usage) AS mem, substring(query, 1, 52) AS q FROM system.query_log WHERE type = 'QueryFinish' AND event_date = today() ORDER BY query_duration_ms DESC LIMIT 60"},
                    run=run, say=f"Najwolniejsze: `{v}` — join po session_id na 30 dniach, ponad 40 s. Reszta poniżej 5 s.")

    def t_model(self) -> dict[str, Any]:
        v = f"lambdamart-pl-{self.hexs(8)}"
        return dict(value=v, tool="ltr_train", query="the artifact name of the newly trained model", ask="puść pełny trening na nowych judgmentach",
                    args={"config": "ltr/configs/lambdamart_pl.yaml", "judgments": "s3://kramik-ltr/judgments/pl-2026-11/", "rounds": 600},
                    run=lambda s: self.out_ltr(s, model=v), say=f"Nowy model: `{v}`, holdout trochę lepszy od produkcyjnego.")

    def t_pod(self) -> dict[str, Any]:
        v = f"query-rewriter-{self.hexs(9)}-{self.hexs(5)}"
        return dict(value=v, tool="shell", query="the rewriter pod stuck in CrashLoopBackOff", ask="czy któryś pod rewritera się restartuje?",
                    args={"command": "kubectl -n search-prod get pods -l app=query-rewriter"}, run=lambda s: self.out_pods(s, inject=v),
                    say=f"Tak — `{v}` jest w CrashLoopBackOff, reszta zdrowa.")

    def t_snapshot(self) -> dict[str, Any]:
        v = "".join(self.rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") for _ in range(22))
        d = self.now()[0]
        return dict(value=v, tool="opensearch", query="the uuid of the snapshot taken before the reindex", ask="zrób snapshot indeksów produktowych przed reindexem",
                    args={"method": "PUT", "path": "/_snapshot/s3-backups/%3Csnap-%7Bnow%2Fd%7D%3E?wait_for_completion=true", "body": {"indices": "products-pl-*", "include_global_state": False}},
                    run=lambda s: _pj({"snapshot": {"snapshot": f"snap-2026.11.{d:02d}", "uuid": v, "version_id": 136387827, "version": "2.17.1",
                                                    "indices": [self.f_index() for _ in range(4)], "state": "SUCCESS",
                                                    "start_time": self.stamps(1)[0], "duration_in_millis": self.rng.randint(40000, 900000),
                                                    "failures": [], "shards": {"total": 24, "failed": 0, "successful": 24}}}),
                    say=f"Snapshot gotowy, uuid `{v}`, wszystkie 24 shardy OK.")

    # ---- drawing the facts ------------------------------------------------------------------------------------

    def accept(self, value: str, query: str, stale: str | None = None) -> bool:
        """A value (and stale value) unrelated to every one drawn before, and a query not asked before."""
        if value in query or (stale is not None and (stale in value or value in stale or stale in query)):
            return False
        for v in (value, stale):
            if v is not None and (v in self.reserved_set or any(v in x or x in v for x in self.reserved)):
                return False
        if query in self.queries:
            return False
        for v in (value, stale):
            if v is not None:
                self.reserved.append(v)
                self.reserved_set.add(v)
        self.queries.add(query)
        return True

    def draw(self, makers: list[Callable[[], dict[str, Any]]], i: int,
             finish: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        for attempt in range(40 * len(makers)):
            d = makers[(i + attempt) % len(makers)]()
            if finish:
                finish(d)
            if attempt >= 3 * len(makers):
                d["query"] = f"{d['query']} (the {i + 1}. one)"
            if self.accept(d["value"], d["query"], d.get("stale")):
                return d
        raise RuntimeError("gen_search: could not draw a new value")

    def specs(self) -> list[dict[str, Any]]:
        r, n, m = self.rng, self.n, self.m
        out: list[dict[str, Any]] = []
        roomy = m >= 200

        # instructions: a Polish and an English rule of the user's own first, then an adopted one, then one
        # conditional, one in a second paragraph and one indirect, then the rest
        groups: dict[str, list[Callable[[], dict[str, Any]]]] = {
            "pl": [self.i_alias, self.i_threads, self.i_window, self.i_shadow, self.i_untilexp, self.i_p95, self.i_table, self.i_maxsyn, self.i_friday],
            "en": [self.i_field, self.i_judg, self.i_ndcg, self.i_maxexec],
            "adopted": [self.i_gdpr, self.i_omnibus, self.i_alert, self.i_ean]}
        for g in groups.values():
            r.shuffle(g)
        order = [groups["pl"].pop(), groups["en"].pop()]
        r.shuffle(order)
        order.append(groups["adopted"].pop())
        rest = groups["pl"] + groups["en"]
        for style in ("conditional", "second", "indirect"):
            pick = [f for f in rest if f.__name__ in STYLE_OF and STYLE_OF[f.__name__] == style]
            if pick:
                f = r.choice(pick)
                rest.remove(f)
                order.append(f)
        tail = rest + groups["adopted"]
        r.shuffle(tail)
        order += tail
        for i in range(n):
            d = self.draw(order, i)
            out.append(dict(kind="instruction", d=d, main_len=4 if roomy and not d.get("doc") and i >= 2 and r.random() < 0.35 else 2,
                            offset=0, main=self.em_instruction))

        corr = [self.c_index, self.c_exp, self.c_sku, self.c_boost, self.c_msm, self.c_synfile, self.c_lr, self.c_traffic,
                self.c_node, self.c_feature, self.c_analyzer, self.c_ticket]
        r.shuffle(corr)
        # a Polish and an English one first
        partner = next(g for g in corr if (g.__name__ in EN_CORRECTIONS) != (corr[0].__name__ in EN_CORRECTIONS))
        corr.remove(partner)
        corr.insert(1, partner)
        for i in range(n):
            d = self.draw(corr, i)
            out.append(dict(kind="correction", d=d, main_len=4 if d["main"] and roomy and r.random() < 0.6 else 2, offset=0,
                            pre_len=4, pre=self.em_corr_pre, main=self.em_correction, long=i % 3 == 1))

        dec = list(range(len(self.DECISIONS)))
        r.shuffle(dec)
        revised = set(r.sample(range(n), max(1, n // 3)))
        for i in range(n):
            rev = i in revised

            def make(k: int, rev: bool = rev) -> Callable[[], dict[str, Any]]:
                def f() -> dict[str, Any]:
                    lang, opts, fmt, query, text, why = self.DECISIONS[k]
                    a, b = r.sample(opts, 2)
                    v = fmt.format(a)
                    d = dict(value=v, query=query, lang=lang, why=why, text=text.format(v=v))
                    if rev:
                        d["stale"] = fmt.format(b)
                    return d
                return f
            d = self.draw([make(k) for k in dec], i)
            out.append(dict(kind="decision", d=d, main_len=2, offset=0, main=self.em_decision,
                            **({"pre_len": 2, "pre": self.em_decision_pre} if rev else {})))

        plans = list(range(len(self.PLANS)))
        r.shuffle(plans)

        def plan(k: int) -> Callable[[], dict[str, Any]]:
            def f() -> dict[str, Any]:
                fmt, (lo, hi, mult), query, text = self.PLANS[k]
                v = fmt.format(r.randint(lo, hi) * mult)
                return dict(value=v, query=query, text=text.format(v=v), lang="pl" if "najpierw" in text.lower() or "najpierw" in text else "en")
            return f
        for i in range(n):
            out.append(dict(kind="plan", d=self.draw([plan(k) for k in plans], i), main_len=2, offset=0, main=self.em_plan))

        files = list(range(len(self.FILES)))
        r.shuffle(files)

        def file(k: int) -> Callable[[], dict[str, Any]]:
            def f() -> dict[str, Any]:
                path, ask, query = self.FILES[k]
                path = _fill(path, n=f"{r.randint(40, 199):04d}")
                return dict(value=path, query=query, ask=ask)
            return f

        def later(d: dict[str, Any]) -> None:
            if d["value"] in self.reserved_set:
                stem, dot, ext = d["value"].rpartition(".")
                d["value"] = f"{stem}_v{r.randint(2, 9)}{dot}{ext}"
        for i in range(n):
            out.append(dict(kind="file", d=self.draw([file(k) for k in files], i, later), main_len=4, offset=1, main=self.em_file))

        errs = [self.e_panic, self.e_compile, self.e_jest, self.e_chmem, self.e_chcol, self.e_keyerror, self.e_label, self.e_k8s,
                self.e_osreq, self.e_tsc, self.e_ab]
        r.shuffle(errs)
        for i in range(n):
            resolved = i % 2 == 0
            out.append(dict(kind="error", d=self.draw(errs, i), main_len=8 if resolved else 4, offset=2, resolved=resolved, main=self.em_error))

        finds = [self.f_explain, self.f_zr, self.f_ndcg, self.f_timeout, self.f_srm, self.f_cycle, self.f_refresh, self.f_p95,
                 self.f_gain, self.f_disk, self.f_reform, self.f_lift]
        r.shuffle(finds)
        for i in range(n):
            out.append(dict(kind="finding", d=self.draw(finds, i), main_len=4, offset=2, main=self.em_finding))

        said = [self.u_index, self.u_exp, self.u_ticket, self.u_sku, self.u_grafana, self.u_seller]
        printed = [self.t_task, self.t_newexp, self.t_qid, self.t_model, self.t_pod, self.t_snapshot]
        r.shuffle(said)
        r.shuffle(printed)
        for i in range(n):
            if i % 2 == 0:
                out.append(dict(kind="identifier", d=self.draw(said, i // 2), main_len=2, offset=0, main=self.em_said))
            else:
                out.append(dict(kind="identifier", d=self.draw(printed, i // 2), main_len=4, offset=2, main=self.em_printed))
        return out

    # ---- emitting the facts' episodes ----------------------------------------------------------------------------

    def record(self, spec: dict[str, Any], index: int, resolved: int | None = None) -> None:
        d = spec["d"]
        self.facts.append(Fact(spec["kind"], d["value"], index, d["query"], d.get("stale"), spec.get("stale_index"), resolved))

    def em_instruction(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        if d.get("doc"):
            intro, doc = d["doc"]
            idx = self.user(f"{intro}\n\n{doc}\n\n{d['text']}")
            self.pasted.append((idx, doc))
            self.last_paste = idx
        else:
            idx = self.user(d["text"])
        self.record(spec, idx)
        if spec["main_len"] == 2:
            self.say(d["ack"])
            return
        pl = d["lang"] == "pl"
        _, args, run, gist = self.fstep(d["tool"], pl)
        _, (call,) = self.act(d["ack"] + (" Sprawdzę od razu, jak to wygląda teraz." if pl else " Let me check the current state."), [(d["tool"], args)])
        self.result(call, run(self.size()))
        self.say(gist())

    def em_corr_pre(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        spec["stale_index"] = self.user(d["stale_text"])
        intro, tool, args, run = d["pre"]
        self.step(intro, tool, args, run)
        self.say(d["pre_say"])

    def em_correction(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        text = d["corr"]
        if spec["long"]:
            pl = any(c in text for c in "ąćęłńóśźż") or text.startswith(("nie", "jednak", "sorry, nie", "a nie", "poprawka", "A, i"))
            before = self.rng.choice(LONG_BEFORE_PL if pl else LONG_BEFORE_EN)
            after = self.rng.choice(LONG_AFTER_PL if pl else LONG_AFTER_EN)
            text = f"{before}\n\n{text[0].upper()}{text[1:]}\n\n{after}"
        self.record(spec, self.user(text))
        if spec["main_len"] == 4:
            intro, tool, args, run = d["main"]
            self.step(intro, tool, args, run)
        self.say(d["main_say"])

    def em_decision_pre(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        pl = d["lang"] == "pl"
        spec["stale_index"] = self.user(f"Na razie: {d['stale']}, potem się zobaczy." if pl else f"For now let's do {d['stale']}, we can revisit later.")
        self.say("Ok, na razie tak ustawiam." if pl else "OK, going with that for now.")

    def em_decision(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        pl = d["lang"] == "pl"
        if d.get("stale"):
            text = (self.rng.choice((f"Wracam do tego, co mówiłem wcześniej — jednak {d['value']}, a nie {d['stale']}, bo {d['why']}.",
                                     f"Zmieniam zdanie: {d['value']}. Tamto ({d['stale']}) odpada, bo {d['why']}.")) if pl
                    else f"Changing my earlier call: {d['value']} instead of {d['stale']}, since {d['why']}.")
        else:
            text = d["text"]
        self.record(spec, self.user(text))
        self.say(f"Ok, zapisuję decyzję: {d['value']}." if pl else f"OK, recorded the decision: {d['value']}.")

    def em_plan(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        self.record(spec, self.user(d["text"]))
        self.say(f"Jasne, w tej kolejności. Zaczynam od pierwszego punktu ({d['value']}), raport po każdym etapie." if d["lang"] == "pl"
                 else f"Sounds good, in that order — starting with the first step ({d['value']}), I'll report after each stage.")

    def em_file(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        path = d["value"]
        self.user(d["ask"])
        content = self.code_text(path, self.rng.randint(1200, 3200))
        idx, (call,) = self.act(f"Tworzę nowy plik {path}.", [("edit_file", {"path": path, "create": True, "content": content})])
        self.record(spec, idx)
        self.result(call, f"Created {path} ({content.count(chr(10)) + 1} lines, {len(content.encode())} bytes)")
        self.say(f"Dodałem {path}. Na razie bez podpinania nigdzie — zobacz, czy podejście pasuje, zanim to zarejestruję.")

    def em_error(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        pl = not d["ask"].startswith(("run", "build", "compute"))
        self.user(d["ask"])
        idx = self.step("Odpalam." if pl else "Running it.", d["tool"], d["args"], d["run"])
        if spec["resolved"]:
            self.record(spec, idx, resolved=idx + 4)
            intro, tool, args, run = d["fix"]
            _, (call,) = self.act(f"{d['explain']}\n\n{intro}", [(tool, args)])
            self.result(call, run(self.size()))
            again = self.step("Jeszcze raz." if pl else "Once more.", d["tool"], d["rerun_args"], d["rerun"])
            assert again == idx + 4
            self.say(d["done"])
        else:
            self.record(spec, idx)
            self.say(f"{d['explain']}\n\n{d['leave']}")

    def em_finding(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        self.user(d["ask"])
        self.record(spec, self.step(self.rng.choice(("Sprawdzam.", "Patrzę.", "Looking.")), d["tool"], d["args"], d["run"]))
        self.say(d["explain"])

    def em_said(self, spec: dict[str, Any]) -> None:
        self.record(spec, self.user(spec["d"]["text"]))
        self.say(spec["d"]["ack"])

    def em_printed(self, spec: dict[str, Any]) -> None:
        d = spec["d"]
        self.user(d["ask"])
        self.record(spec, self.step("Robię.", d["tool"], d["args"], d["run"]))
        self.say(d["say"])

    # ---- where the episodes go ----------------------------------------------------------------------------------

    def layout(self, specs: list[dict[str, Any]]) -> list[tuple[int, _Block]]:
        r, m, n = self.rng, self.m, self.n
        instr = [s for s in specs if s["kind"] == "instruction"]
        firsts = instr[:2]
        groups: dict[str, list[dict[str, Any]]] = {k: [s for s in specs if s["kind"] == k and not any(s is f for f in firsts)] for k in KINDS}
        seq: list[dict[str, Any]] = []
        for i in range(n):
            kinds = list(KINDS)
            r.shuffle(kinds)
            seq += [groups[k][i] for k in kinds if i < len(groups[k])]
        blocks: list[_Block] = []
        count = 0

        def add(target: float, length: int, emit: Callable[[], None]) -> None:
            nonlocal count
            blocks.append(_Block(int(target), length, emit, count))
            count += 1

        add(max(0.035 * m + 1, 0.045 * m), firsts[0]["main_len"], lambda s=firsts[0]: s["main"](s))
        if len(firsts) > 1:
            add(0.095 * m, firsts[1]["main_len"], lambda s=firsts[1]: s["main"](s))
        lo, hi = 0.13 * m, 0.82 * m
        space = (hi - lo) / max(1, len(seq))
        far_turn = 0
        for j, spec in enumerate(seq):
            target = lo + space * (j + 0.5) + r.uniform(-0.3, 0.3) * space
            if "pre" in spec:
                if spec["kind"] == "correction":
                    far_min = max(105, int(0.045 * m))
                    eligible = target - 0.11 * m - spec["pre_len"] >= far_min + 10
                    if eligible:
                        far_turn += 1
                    gap = r.randint(far_min + 5, max(far_min + 10, int(0.09 * m))) if eligible and far_turn % 2 == 1 else r.randint(4, 4 + int(0.015 * m))
                else:
                    gap = r.randint(4, 4 + int(0.04 * m))
                pre_t = max(0.11 * m, target - gap - spec["pre_len"])
                add(min(pre_t, target - spec["pre_len"] - 1), spec["pre_len"], lambda s=spec: s["pre"](s))
            add(target, spec["main_len"], lambda s=spec: s["main"](s))
        blocks.sort(key=lambda b: (b.target, b.seq))
        placed: list[tuple[int, _Block]] = []
        cur = 1
        for b in blocks:
            start = max(cur, b.target)
            if start - cur == 1:
                start += 1
            placed.append((start, b))
            cur = start + b.length
        end_gap = (m - 1) - cur
        if end_gap == 1:
            gaps = [placed[k][0] - (placed[k - 1][0] + placed[k - 1][1].length if k else 1) for k in range(len(placed))]
            wide = [k for k, g in enumerate(gaps) if g >= 2]
            if not wide:
                raise RuntimeError("gen_search: no room to shift a block")
            placed = placed[:wide[-1]] + [(s + 1, b) for s, b in placed[wide[-1]:]]
        elif end_gap < 0:
            raise RuntimeError("gen_search: the episodes do not fit")
        return placed

    def build(self) -> Session:
        specs = self.specs()
        placed = self.layout(specs)
        self._add({"role": "system", "content": SYSTEM})
        for start, block in placed:
            self.filler(start - len(self.out))
            before = len(self.out)
            block.emit()
            assert len(self.out) - before == block.length, (block.length, len(self.out) - before)
        self.filler(self.m - 1 - len(self.out))
        self.user(self.rng.choice(CLOSINGS))
        self.facts.sort(key=lambda f: f.index)
        return Session(self.out, self.facts, 0, self.pasted)

    # ---- the contract, checked before a session leaves -----------------------------------------------------------

    def verify(self, session: Session) -> str | None:
        """What breaks the contract in ``session``, or None."""
        msgs, m = session.messages, self.m
        if len(msgs) != m:
            return "size"
        if any(x not in self.used for x in TOOLS):
            return "a tool is never called"
        texts = [text_of(x) for x in msgs]
        joined = "\x00".join(texts)
        starts = []
        pos = 0
        for t in texts:
            starts.append(pos)
            pos += len(t) + 1

        def where(value: str) -> list[int]:
            found, out = joined.find(value), []
            while found >= 0 and len(out) < 40:
                out.append(bisect.bisect_right(starts, found) - 1)
                found = joined.find(value, found + 1)
            return out

        thirds = [0, 0, 0]
        for f in session.facts:
            if not (0.03 * m <= f.index <= 0.88 * m) or f.value in f.query:
                return f"placement or query of {f}"
            thirds[min(2, f.index * 3 // m)] += 1
            held = where(f.value)
            if not held or held[0] != f.index or held[-1] > f.index + AFTER_VALUE:
                return f"value out of place {held} {f}"
            if f.stale is not None:
                olds = where(f.stale)
                if f.stale_index is None or f.stale_index < 0.03 * m or not olds or olds[0] != f.stale_index:
                    return f"stale out of place {olds} {f}"
                if any(not (f.stale_index <= i <= f.stale_index + STALE_REACH or f.index <= i <= f.index + AFTER_VALUE) for i in olds):
                    return f"stale repeated {olds} {f}"
            if f.kind == "error" and f.value not in str(msgs[f.index]["content"]).splitlines():
                return f"error not a whole line {f}"
            if f.resolved is not None and f.value in texts[f.resolved]:
                return f"resolved still failing {f}"
        if min(thirds) < len(session.facts) // 6:
            return f"thirds {thirds}"
        rules = sorted((f for f in session.facts if f.kind == "instruction"), key=lambda f: f.index)
        if rules[0].index > m / 10 or (len(rules) > 1 and rules[1].index > m / 7):
            return "first rules late"
        far = sum(f.index - (f.stale_index or 0) > 100 for f in session.facts if f.kind == "correction")
        if m >= 3000 and far < 4:
            return f"only {far} far corrections"
        return None


STYLE_OF = {"i_alias": "direct", "i_threads": "direct", "i_window": "direct", "i_shadow": "preference", "i_untilexp": "conditional",
            "i_p95": "conditional", "i_table": "second", "i_maxsyn": "indirect", "i_friday": "indirect", "i_field": "direct",
            "i_judg": "preference", "i_ndcg": "conditional", "i_maxexec": "second", "i_gdpr": "adopted", "i_omnibus": "adopted",
            "i_alert": "adopted", "i_ean": "adopted"}
EN_CORRECTIONS = ("c_exp", "c_msm", "c_node", "c_analyzer")  # corrections the user writes in English


def make_session(seed: int, messages: int) -> Session:
    """A search team's session of exactly ``messages`` messages (at least MIN_MESSAGES) with its planted facts."""
    if messages < MIN_MESSAGES:
        raise ValueError(f"gen_search needs at least {MIN_MESSAGES} messages, got {messages}")
    for attempt in range(40):
        gen = _Facts(seed, messages, attempt)
        try:
            session = gen.build()
        except RuntimeError:
            continue
        if gen.verify(session) is None:
            session.seed = seed
            return session
    raise RuntimeError(f"gen_search: no valid session for seed {seed} at {messages} messages")
