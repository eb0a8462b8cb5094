/**
 * Warm scenarios of the benchmark (scripts/bench/bench.ts), as data: one per tool (plus variants),
 * snapshot at scale, console/network at scale. Each scenario measures exactly one tool call
 * per iteration; any setup it needs (per scenario or per iteration) is done by unmeasured calls.
 */
import type {CallResult, Session} from './session.js';

export interface Ctx {
  /** Iteration index, warm-up included. */
  i: number;
  /** Calls made per side in this scenario (warm-up + measured). */
  total: number;
  /** uids of the scenario's targets, from a snapshot taken after navigating. */
  uids: string[];
  url: (p: string) => string;
  files: string[];
  /** The page the session works on (its selected page at start). */
  pageId: number;
  state: Record<string, string | number>;
}

type Step = (s: Session, c: Ctx) => Promise<string | undefined>;

export interface Scenario {
  id: string;
  section: string;
  tool: string;
  /** Other tools the setup needs. */
  needs?: string[];
  /** Fixture path navigated to once before warm-up. */
  page?: string;
  /** Text waited for (wait_for, unmeasured) after navigating. */
  ready?: string;
  /** Snapshot lines to take uids from (ctx.uids, same order). */
  targets?: RegExp[];
  /** Once, after navigation and targets; returns an error to mark the side n/a. */
  setup?: Step;
  /** Per iteration, before the measured call (unmeasured). */
  before?: Step;
  args: (c: Ctx) => Record<string, unknown>;
  /** Measures something other than a tools/call of `tool` (then `tool` need not be listed). */
  measure?: (s: Session) => Promise<CallResult>;
  /** Returns a failure message when the response is wrong. */
  check?: (r: CallResult, c: Ctx) => string | undefined;
  /** Per iteration, after the measured call (unmeasured). */
  after?: (s: Session, c: Ctx, r: CallResult) => Promise<string | undefined>;
  /** Effect read back from the page after the last call: the value evaluate_script must return. */
  effect?: {fn: string; expect: (c: Ctx) => string};
  teardown?: (s: Session, c: Ctx) => Promise<unknown>;
  warmup?: number;
  maxIterations?: number;
  /**
   * Measured calls per `--iterations` (default 1). Sub-millisecond calls get
   * more: their medians sit on the 0.1 ms the table shows, and 20 samples of a
   * shared machine move them by a step either way.
   */
  samplesPerIteration?: number;
  /** Numbers read from the last response, shown in the notes. */
  facts?: (r: CallResult) => Record<string, number>;
  /** Facts that get their own rows (e.g. snapshot characters), with a label each. */
  factRows?: Array<{key: string; label: string}>;
}

const oneLn = (s: string, n = 120) => s.replace(/\s+/g, ' ').trim().slice(0, n);
const expectText = (re: RegExp) => (r: CallResult) =>
  re.test(r.text) ? undefined : `unexpected output: ${oneLn(r.text)}`;
const countLines = (text: string, re: RegExp) => text.split('\n').filter(l => re.test(l)).length;
const failed = (what: string, r: CallResult) => (r.ok ? undefined : `${what} failed: ${r.error}`);
const sleep = (ms: number) => new Promise<void>(r => setTimeout(r, ms));
/** Id of the line matching `re` (e.g. reqid=12 GET …/data?i=5). */
const idOn = (text: string, key: string, re: RegExp) => {
  const line = text.split('\n').find(l => re.test(l) && l.includes(`${key}=`));
  const m = line && new RegExp(`${key}=(\\d+)`).exec(line);
  return m ? Number(m[1]) : undefined;
};

const LAT = 'Per-tool latency (ms, median of warm calls)';
const SNAP = 'Snapshot at scale (main > section > div > ul > li > div > button)';
const SCALE = 'Console and network at scale (500 fetches + 500 console messages on one page)';

function snapN(n: number, maxIterations?: number): Scenario {
  return {
    id: `take_snapshot, ${n} buttons (ms)`,
    section: SNAP,
    tool: 'take_snapshot',
    page: `/buttons?n=${n}`,
    warmup: n >= 5000 ? 1 : 3,
    maxIterations,
    args: () => ({}),
    check: expectText(new RegExp(`Button ${n}\\b`)),
    facts: r => ({chars: r.chars, buttonLines: countLines(r.text, /button "/)}),
    factRows: [
      {key: 'chars', label: `take_snapshot, ${n} buttons: output characters`},
      {key: 'buttonLines', label: `check: lines with \`button "\`, ${n} buttons`},
    ],
  };
}

/**
 * take_snapshot sinceLast after one element was added (ours only: the
 * reference has no sinceLast). Each iteration first takes the full snapshot
 * the diff compares with and adds a button (unmeasured); the full snapshot's
 * figures are the snapN rows.
 */
function sinceLastN(n: number, maxIterations?: number): Scenario {
  return {
    id: `take_snapshot sinceLast, ${n} buttons, one added (ms)`,
    section: SNAP,
    tool: 'take_snapshot',
    needs: ['evaluate_script'],
    page: `/buttons?n=${n}`,
    warmup: n >= 5000 ? 1 : 3,
    maxIterations,
    setup: async s => (s.side === 'theirs' ? 'chrome-devtools-mcp has no sinceLast' : undefined),
    before: async (s, c) => {
      const full = await s.call('take_snapshot');
      const added = await s.call('evaluate_script', {
        function: `() => { const b = document.createElement('button'); b.textContent = 'Added ${c.i}'; document.querySelector('li').append(b); }`,
      });
      return failed('full snapshot', full) ?? failed('adding a button', added);
    },
    args: () => ({sinceLast: true}),
    check: r =>
      /^## Changes since the previous snapshot$/m.test(r.text) && /button "Added \d+"/.test(r.text)
        ? undefined
        : `not a diff: ${oneLn(r.text)}`,
    facts: r => ({chars: r.chars}),
    factRows: [{key: 'chars', label: `take_snapshot sinceLast, ${n} buttons, one added: output characters`}],
  };
}

/** list/get console and network on /activity?n=N (N logs, N fetches). */
function activity(n: number, section: string, suffix: string): Scenario[] {
  const page = `/activity?n=${n}`;
  const ready = `all done ${n}`;
  const pick = Math.ceil(n / 2);
  return [
    {
      id: `list_console_messages${suffix}`,
      section,
      tool: 'list_console_messages',
      page,
      ready,
      args: () => ({}),
      check: expectText(new RegExp(`bench message ${n}\\b`)),
      facts: r => ({msgidLines: countLines(r.text, /^msgid=/), chars: r.chars}),
    },
    {
      id: `get_console_message${suffix}`,
      section,
      tool: 'get_console_message',
      needs: ['list_console_messages'],
      page,
      ready,
      setup: async (s, c) => {
        const r = await s.call('list_console_messages');
        const id = idOn(r.text, 'msgid', new RegExp(`bench message ${pick}\\b`));
        if (id === undefined) {
          return `no msgid for "bench message ${pick}": ${r.error ?? oneLn(r.text)}`;
        }
        c.state.id = id;
        return undefined;
      },
      args: c => ({msgid: c.state.id}),
      check: expectText(new RegExp(`bench message ${pick}\\b`)),
      facts: r => ({chars: r.chars}),
    },
    {
      id: `list_network_requests${suffix}`,
      section,
      tool: 'list_network_requests',
      page,
      ready,
      args: () => ({}),
      check: expectText(new RegExp(`/data\\?i=${n}\\b`)),
      facts: r => ({reqidLines: countLines(r.text, /^reqid=/), chars: r.chars}),
    },
    {
      id: `get_network_request${suffix}`,
      section,
      tool: 'get_network_request',
      needs: ['list_network_requests'],
      page,
      ready,
      setup: async (s, c) => {
        const r = await s.call('list_network_requests');
        const id = idOn(r.text, 'reqid', new RegExp(`/data\\?i=${pick}\\b`));
        if (id === undefined) {
          return `no reqid for /data?i=${pick}: ${r.error ?? oneLn(r.text)}`;
        }
        c.state.id = id;
        return undefined;
      },
      args: c => ({reqid: c.state.id}),
      check: expectText(new RegExp(`/data\\?i=${pick}\\b`)),
      facts: r => ({chars: r.chars}),
    },
  ];
}

const newPageId = (r: CallResult) => Number(/^(\d+):.*\[selected\]/m.exec(r.text)?.[1] ?? NaN);
const backToOurPage = (s: Session, c: Ctx) => s.call('select_page', {pageId: c.pageId, bringToFront: true});
const DIALOG_DELAY = 200;
const DIALOG_FN = `() => { setTimeout(() => { alert('bench dialog'); window.dialogs = (window.dialogs ?? 0) + 1; }, ${DIALOG_DELAY}); return 'armed'; }`;

async function ping(s: Session): Promise<CallResult> {
  const t0 = performance.now();
  try {
    await s.client.ping({timeout: s.timeout});
    return {ok: true, ms: performance.now() - t0, text: '', images: 0, chars: 0};
  } catch (e) {
    return {ok: false, ms: performance.now() - t0, text: '', images: 0, chars: 0, error: (e as Error).message};
  }
}

const DEVTOOLS = 'DevTools depth (ms, median; the shop page: render-blocking CSS served after 300 ms, LCP image)';

/** An unmeasured reload trace, so that performance_analyze_insight has one to read. */
const recordTrace: Step = async s => failed('performance_start_trace', await s.call('performance_start_trace', {}));

const DEVTOOLS_SCENARIOS: Scenario[] = [
  {
    id: 'performance_start_trace (reload + autoStop, whole call)',
    section: DEVTOOLS,
    tool: 'performance_start_trace',
    page: '/shop',
    args: () => ({reload: true, autoStop: true}),
    check: expectText(
      /## insight set id: NAVIGATION_0\n[\s\S]*insight name: LCPBreakdown[\s\S]*insight name: RenderBlocking/,
    ),
    facts: r => ({insights: countLines(r.text, /^ {2}- insight name: /)}),
    warmup: 1,
    maxIterations: 5,
  },
  {
    id: 'performance_analyze_insight (LCPBreakdown of the last trace)',
    section: DEVTOOLS,
    tool: 'performance_analyze_insight',
    needs: ['performance_start_trace'],
    page: '/shop',
    setup: recordTrace,
    args: () => ({insightSetId: 'NAVIGATION_0', insightName: 'LCPBreakdown'}),
    check: expectText(/^## Insight Title: LCP breakdown/),
  },
  {
    id: 'get_css_styles (h1.hero: 4 rules, one inherited)',
    section: DEVTOOLS,
    tool: 'get_css_styles',
    page: '/shop',
    targets: [/heading "Big sale"/],
    args: c => ({uid: c.uids[0]}),
    check: expectText(/^Showing 1-4 of 4 \(Page 1 of 1\)\.\nStyles for h1\.hero/),
  },
];

export const SCENARIOS: Scenario[] = [
  {
    id: 'MCP ping round trip (transport floor, not a tool)',
    section: LAT,
    samplesPerIteration: 10,
    tool: 'ping',
    measure: ping,
    args: () => ({}),
  },
  {
    id: 'list_pages',
    section: LAT,
    samplesPerIteration: 10,
    tool: 'list_pages',
    page: '/simple',
    args: () => ({}),
    check: expectText(/\/simple/),
  },
  {
    id: 'select_page',
    section: LAT,
    samplesPerIteration: 10,
    tool: 'select_page',
    page: '/simple',
    args: c => ({pageId: c.pageId}),
    check: expectText(/\[selected\]/),
  },
  {
    id: 'new_page (url; closed after, unmeasured)',
    section: LAT,
    tool: 'new_page',
    needs: ['close_page'],
    args: c => ({url: c.url(`/simple?new=${c.i}`)}),
    check: r => (Number.isFinite(newPageId(r)) ? undefined : `no [selected] page id in: ${oneLn(r.text)}`),
    after: async (s, _c, r) => failed('close_page', await s.call('close_page', {pageId: newPageId(r)})),
    teardown: backToOurPage,
  },
  {
    id: 'close_page (page opened before, unmeasured)',
    section: LAT,
    tool: 'close_page',
    needs: ['new_page'],
    before: async (s, c) => {
      const r = await s.call('new_page', {url: c.url(`/simple?close=${c.i}`)});
      c.state.id = newPageId(r);
      return (
        failed('new_page', r) ??
        (Number.isFinite(c.state.id) ? undefined : `no page id from new_page: ${oneLn(r.text)}`)
      );
    },
    args: c => ({pageId: c.state.id}),
    teardown: backToOurPage,
  },
  {
    id: 'navigate_page (url)',
    section: LAT,
    tool: 'navigate_page',
    args: c => ({type: 'url', url: c.url(`/simple?i=${c.i}`)}),
    check: expectText(/simple\?i=/),
  },
  {
    id: 'navigate_page (back; forward navigation before, unmeasured)',
    section: LAT,
    tool: 'navigate_page',
    page: '/simple',
    before: async (s, c) =>
      failed('navigate', await s.call('navigate_page', {type: 'url', url: c.url(`/simple?fwd=${c.i}`)})),
    args: () => ({type: 'back'}),
  },
  {id: 'navigate_page (reload)', section: LAT, tool: 'navigate_page', page: '/simple', args: () => ({type: 'reload'})},
  {
    id: 'wait_for (text already present)',
    section: LAT,
    tool: 'wait_for',
    page: '/simple',
    args: () => ({text: ['Hello']}),
    check: expectText(/Hello/),
  },
  {
    id: 'evaluate_script (document.title)',
    section: LAT,
    tool: 'evaluate_script',
    page: '/simple',
    args: () => ({function: '() => document.title'}),
    check: expectText(/"Simple"/),
  },
  {
    id: 'evaluate_script (waitForStableDom: false)',
    section: LAT,
    tool: 'evaluate_script',
    page: '/simple',
    args: () => ({function: '() => document.title', waitForStableDom: false}),
    check: expectText(/"Simple"/),
  },
  {
    id: 'take_screenshot (png, viewport)',
    section: LAT,
    tool: 'take_screenshot',
    page: '/simple',
    args: () => ({format: 'png'}),
    check: r => (r.images ? undefined : 'no image content'),
  },
  {
    id: 'take_snapshot (simple page)',
    section: LAT,
    tool: 'take_snapshot',
    page: '/simple',
    args: () => ({}),
    check: expectText(/heading "Hello"/),
    facts: r => ({chars: r.chars}),
  },
  {
    id: 'click',
    section: LAT,
    tool: 'click',
    page: '/form',
    targets: [/button "Count"/],
    args: c => ({uid: c.uids[0]}),
    effect: {fn: '() => window.clicks', expect: c => String(c.total)},
  },
  {
    id: 'hover (two targets, alternating)',
    section: LAT,
    tool: 'hover',
    page: '/form',
    targets: [/button "Hover A"/, /button "Hover B"/],
    args: c => ({uid: c.uids[c.i % 2]}),
    effect: {fn: '() => window.hovers', expect: c => String(c.total)},
  },
  {
    id: 'fill (textbox)',
    section: LAT,
    tool: 'fill',
    page: '/form',
    targets: [/textbox "Name"/],
    args: c => ({uid: c.uids[0], value: `v${c.i}`}),
    effect: {fn: "() => document.getElementById('name').value", expect: c => JSON.stringify(`v${c.total - 1}`)},
  },
  {
    id: 'fill_form (2 textboxes + select)',
    section: LAT,
    tool: 'fill_form',
    page: '/form',
    targets: [/textbox "Name"/, /textbox "Email"/, /combobox "Color"/],
    args: c => ({
      elements: [
        {uid: c.uids[0], value: `n${c.i}`},
        {uid: c.uids[1], value: `e${c.i}@example.test`},
        {uid: c.uids[2], value: ['Red', 'Green', 'Blue'][c.i % 3]},
      ],
    }),
    effect: {
      fn: "() => ['name', 'email', 'color'].map(id => document.getElementById(id).value).join(',')",
      expect: c =>
        JSON.stringify(`n${c.total - 1},e${c.total - 1}@example.test,${['Red', 'Green', 'Blue'][(c.total - 1) % 3]}`),
    },
  },
  {
    id: 'press_key ("a")',
    section: LAT,
    tool: 'press_key',
    page: '/form',
    args: () => ({key: 'a'}),
    effect: {fn: '() => window.keys', expect: c => String(c.total)},
  },
  {
    id: 'type_text ("abc" into a focused textarea)',
    section: LAT,
    tool: 'type_text',
    needs: ['click'],
    page: '/form',
    targets: [/textbox "Typed"/],
    setup: async (s, c) => failed('focus click', await s.call('click', {uid: c.uids[0]})),
    args: () => ({text: 'abc'}),
    effect: {fn: "() => document.getElementById('typed').value.length", expect: c => String(3 * c.total)},
  },
  {
    id: 'drag (HTML5 drag-and-drop list)',
    section: LAT,
    tool: 'drag',
    page: '/drag',
    targets: [/"Item 1"/, /"Item 5"/],
    args: c => (c.i % 2 ? {from_uid: c.uids[1], to_uid: c.uids[0]} : {from_uid: c.uids[0], to_uid: c.uids[1]}),
    effect: {fn: '() => window.drops', expect: c => String(c.total)},
  },
  {
    id: 'upload_file (file input, OS temp dir)',
    section: LAT,
    tool: 'upload_file',
    page: '/upload',
    targets: [/"Upload file"/],
    args: c => ({uid: c.uids[0], filePaths: [c.files[c.i % 2]]}),
    effect: {fn: '() => window.uploads', expect: c => String(c.total)},
  },
  {
    id: 'handle_dialog (alert opened by a timer, unmeasured)',
    section: LAT,
    tool: 'handle_dialog',
    page: '/simple',
    before: async s => {
      // evaluate_script answers dialogs its script opens while it runs (both servers, dialogAction defaults to accept),
      // so the alert comes from a timer that fires after the call returned; then wait until it surely opened.
      const t0 = performance.now();
      const r = await s.call('evaluate_script', {function: DIALOG_FN, waitForStableDom: false});
      await sleep(Math.max(0, DIALOG_DELAY + 150 - (performance.now() - t0)));
      return failed('opening the dialog', r);
    },
    args: () => ({action: 'accept'}),
    effect: {fn: '() => window.dialogs', expect: c => String(c.total)},
  },
  {
    id: 'emulate (colorScheme dark/light)',
    section: LAT,
    tool: 'emulate',
    page: '/simple',
    args: c => ({colorScheme: c.i % 2 ? 'dark' : 'light'}),
    effect: {
      fn: "() => matchMedia('(prefers-color-scheme: dark)').matches",
      expect: c => String((c.total - 1) % 2 === 1),
    },
    teardown: s => s.call('emulate', {}),
  },
  {
    id: 'resize_page (1000x700 / 1280x720)',
    section: LAT,
    tool: 'resize_page',
    page: '/simple',
    args: c => (c.i % 2 ? {width: 1000, height: 700} : {width: 1280, height: 720}),
    effect: {
      fn: '() => `${innerWidth}x${innerHeight}`',
      expect: c => JSON.stringify((c.total - 1) % 2 ? '1000x700' : '1280x720'),
    },
    teardown: s => s.call('resize_page', {width: 1280, height: 720}),
  },
  ...activity(10, LAT, ' (10 messages / 10 fetches)'),
  snapN(100),
  snapN(300),
  snapN(1000),
  snapN(5000, 7),
  sinceLastN(300),
  sinceLastN(1000),
  sinceLastN(5000, 7),
  ...activity(500, SCALE, ' (500)'),
  ...DEVTOOLS_SCENARIOS,
];
