// qi's web board. It draws any registered game from the board data the server sends (the
// game frame's BoardView) and sends clicks back as moves in the game's notation; the server
// validates every move and says why it refuses one. No game rules live here.

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const S = 40; // grid spacing in SVG units
const M = 54; // margin around the grid (room for the labels outside the stones)

let catalog = [];
let state = null;
let source = null;
let selected = null; // from-to games: the name of the picked piece's cell
let flipped = false;
// Whether this browser can draw Chinese characters (xiangqi's pieces and river): without a
// CJK font every one of them is the same empty box, so two different characters draw the
// same pixels. Without them the pieces are letters and the river is named in English.
function drawsChinese() {
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  const g = canvas.getContext('2d');
  if (!g) return true;
  const pixels = (ch) => {
    g.clearRect(0, 0, 32, 32);
    g.font = '24px sans-serif';
    g.fillText(ch, 2, 26);
    return g.getImageData(0, 0, 32, 32).data.join();
  };
  return pixels('帅') !== pixels('车');
}
const chinese = drawsChinese();
let letters = !chinese;
let suggestion = null; // a hint's move, drawn until the next state
let limits = null; // the server's limits (GET /api/limits)
let deadline = null; // when the server drops the game unless it changes (ms, this clock)
let offer = []; // an opening's 5th moves being chosen to offer, by point name
let viewing = null; // reviewing an earlier position: {turn, board}
let review = null; // the engine's review of the game: {turns, worst}

// ---- seats: the keys this browser holds -----------------------------------------------------
// The server gives a game's creator a key for each side (and, for a game of two people, an
// invitation to the second side's seat); a friend who opens the invitation gets a key of
// their own for that seat. Keys are kept in this browser's localStorage, by game id; a page
// without a key watches.

function seatStore() {
  try { return JSON.parse(localStorage.getItem('qi-seats') || '{}'); } catch { return {}; }
}

function keepSeats(id, entry) {
  const all = seatStore();
  all[id] = { ...(all[id] || {}), ...entry, seats: { ...((all[id] || {}).seats || {}), ...(entry.seats || {}) } };
  localStorage.setItem('qi-seats', JSON.stringify(all));
}

function seatsOf(id) {
  return seatStore()[id] || { seats: {} };
}

// The key this browser holds for `side` of the game shown, or null. The creator's key to the
// invited seat stops working once a friend has claimed it.
function mine(side) {
  if (!state) return null;
  const seat = seatsOf(state.id).seats[side];
  if (!seat) return null;
  if (seat.from === 'owner' && side === 1 && state.invitation === 'claimed') return null;
  return seat.key;
}

function anyKey() {
  return mine(0) || mine(1);
}

function watching() {
  return !anyKey();
}

// The seat holding `side` now: an opening rule's swap gives each player the other side.
function seatOf(side) {
  return state && state.swapped ? 1 - side : side;
}

// The opening rule's step asked now, or null.
function asked() {
  return state && state.opening ? state.opening.asked : null;
}

async function api(method, path, body, key) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (key) init.headers.Authorization = `Bearer ${key}`;
  const res = await fetch(path, init);
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch { data = { error: text }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function say(text, kind = 'error') {
  const m = $('message');
  m.textContent = text;
  m.className = text ? kind : '';
}

// ---- start screen -------------------------------------------------------------------------

function chosenGame() {
  return catalog.find((g) => g.name === $('game').value) || catalog[0];
}

function fillRules() {
  const g = chosenGame();
  $('game-summary').textContent = g.summary;
  const rule = $('rule');
  rule.replaceChildren();
  for (const r of g.rules) {
    const o = document.createElement('option');
    o.value = r.name;
    o.textContent = `${r.name}: ${r.help}`;
    rule.append(o);
  }
  $('rule-label').hidden = g.rules.length === 0;
  fillOpenings();
  $('size-label').hidden = !g.stone_setups;
  $('first-name').textContent = g.sides[0];
  $('second-name').textContent = g.sides[1];
}

// The opening rules of the game and rule chosen (swap2, taraguchi-10, rif).
function fillOpenings() {
  const g = chosenGame();
  const rule = g.rules.length > 0 ? $('rule').value : '';
  const list = (g.openings || {})[rule] || [];
  const pick = $('opening');
  pick.replaceChildren(...list.map((o) => {
    const opt = new Option(`${o.name}: ${o.help}`, o.name);
    return opt;
  }));
  $('opening-label').hidden = list.length === 0;
}

function showStart() {
  if (source) { source.close(); source = null; }
  state = null;
  $('play').hidden = true;
  $('start').hidden = false;
  document.title = 'qi';
}

async function startGame(event) {
  event.preventDefault();
  $('start-error').textContent = '';
  const g = chosenGame();
  const body = {
    players: [$('first').value, $('second').value],
  };
  // A clock or a time per move: the engine plays to its clock when there is one.
  if ($('clock').value === '') body.movetime_ms = Number($('movetime').value);
  if ($('depth').value !== '') body.depth = Number($('depth').value);
  if ($('clock').value !== '') body.clock = $('clock').value;
  if ($('level').value !== '8') body.level = Number($('level').value);
  const setup = $('setup').value.trim();
  if (/\[Game\s/i.test(setup)) {
    body.record = setup;
  } else {
    body.game = g.name;
    if (g.rules.length > 0 && !$('rule-label').hidden) body.rule = $('rule').value;
    // An opening rule is for a game from the empty board.
    if (!$('opening-label').hidden && $('opening').value && setup === '') body.opening = $('opening').value;
    if ($('size').value !== '' && g.stone_setups) body.size = Number($('size').value);
    if (setup !== '') {
      if (g.name === 'xiangqi' && setup.includes('/')) body.fen = setup;
      else body.moves = setup;
    }
  }
  try {
    const s = await api('POST', '/api/games', body);
    keepSeats(s.id, {
      seats: { 0: { key: s.seat_keys[0], from: 'owner' }, 1: { key: s.seat_keys[1], from: 'owner' } },
      invite: s.invite,
    });
    history.pushState(null, '', `/?game=${s.id}`);
    openGame(s.id, s);
  } catch (e) {
    $('start-error').textContent = e.message;
  }
}

// ---- a game -------------------------------------------------------------------------------

function openGame(id, first) {
  $('start').hidden = true;
  $('play').hidden = false;
  selected = null;
  suggestion = null;
  flipped = false;
  say('');
  $('live').textContent = '';
  if (first) show(first);
  if (source) source.close();
  source = new EventSource(`/api/games/${id}/events`);
  source.addEventListener('state', (e) => show(JSON.parse(e.data)));
  source.addEventListener('info', (e) => showInfo(JSON.parse(e.data)));
  source.addEventListener('dropped', (e) => {
    source.close();
    source = null;
    deadline = null;
    $('expiry').textContent = '';
    say(JSON.parse(e.data).reason);
  });
  source.onerror = () => {
    if (source && source.readyState === EventSource.CLOSED) say('The connection to the server was lost: reload the page.');
  };
  const url = `${location.origin}/?game=${id}`;
  $('share').href = url;
  $('share').textContent = url;
  $('download').href = `/api/games/${id}/record`;
}

// The invitation link, shown to the creator while the second seat is free.
function showInvite() {
  const invite = seatsOf(state.id).invite;
  const open = !!invite && state.invitation === 'open' && !!mine(0);
  $('invite-box').hidden = !open;
  if (open) {
    const url = `${location.origin}/?game=${state.id}&invite=${invite}`;
    $('invite').href = url;
    $('invite').textContent = url;
    $('invite-side').textContent = state.sides[1];
  }
}

// A line under the buttons: when the server drops the game, counting down near the end.
function showExpiry() {
  const box = $('expiry');
  if (!state || !limits || deadline === null) { box.textContent = ''; return; }
  const idle = limits.idle_s;
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const warn = Math.min(300, idle / 2);
  if (!state.ending && !state.thinking && left <= warn) {
    const m = Math.floor(left / 60);
    const sec = String(left % 60).padStart(2, '0');
    box.textContent = `No move for a while: the server drops this game in ${m}:${sec} unless someone moves.`;
    box.className = 'warning';
  } else {
    box.textContent = `The server drops a game after ${spanText(idle)} without a move.`;
    box.className = '';
  }
}

// ---- clocks --------------------------------------------------------------------------------

let clockAt = 0; // when the shown state arrived: the running clock counts down from then

/// A clock reading as game clocks show it: 4:59, 1:02:03, and tenths under ten seconds.
function clockText(ms) {
  const tenths = Math.max(0, Math.floor(ms / 100));
  const secs = Math.floor(tenths / 10);
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const sec = String(secs % 60).padStart(2, '0');
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${sec}`;
  if (secs < 10) return `${m}:${sec}.${tenths % 10}`;
  return `${m}:${sec}`;
}

/// Both clocks, the running one counting down since the state arrived (the server ends the
/// game when it reaches zero).
function showClocks() {
  const c = state && state.clock;
  $('clocks').hidden = !c;
  if (!c) return;
  for (const side of [0, 1]) {
    let ms = c.remaining_ms[side];
    const running = c.running === side && !state.ending;
    if (running) ms -= Date.now() - clockAt;
    const e = $(`clock-${side}`);
    e.textContent = `${state.sides[side]} ${clockText(ms)}`;
    e.dataset.ms = Math.max(0, Math.round(ms));
    e.classList.toggle('running', running);
    e.classList.toggle('low', ms < 10000);
  }
}

function spanText(s) {
  if (s >= 3600 && s % 3600 === 0) return `${s / 3600} h`;
  if (s >= 60 && s % 60 === 0) return `${s / 60} min`;
  return `${s} s`;
}

function show(s, redraw = false) {
  if (state && s.id === state.id && !redraw) {
    if (s.version < state.version) return; // an older event
    // The same state again (the event stream's first one): keep the board as it is.
    if (s.version === state.version && s.thinking === state.thinking) return;
  }
  if (!state || s.version !== state.version) { suggestion = null; offer = []; }
  if (!state || s.id !== state.id) {
    viewing = null;
    review = null;
    $('viewing').hidden = true;
    flipped = s.board.flippable && s.seats[0] === 'engine' && s.seats[1] === 'human';
  }
  // The live line belongs to a search: none runs, none is shown.
  if (!s.thinking) $('live').textContent = '';
  state = s;
  clockAt = Date.now();
  deadline = Date.now() + s.drops_in_s * 1000;
  document.title = `qi · ${s.game}`;
  drawBoard();
  const b = s.board;
  let status;
  if (s.ending) status = `Game over: ${s.ending.text} (${s.ending.result})`;
  else {
    const who = s.seats[s.actor] === 'engine' ? ' (engine)' : '';
    const ask = s.opening && s.opening.asked;
    if (ask) {
      const holds = s.sides[s.swapped ? 1 - ask.seat : ask.seat];
      status = `${s.opening.rule} opening: ${holds}${who} to ${ask.kind === 'choose' ? 'choose' : ask.kind}`;
    } else status = `${s.sides[s.to_move]}${who} to move`;
    if (s.pending) status += ' · one more stone';
    if (s.thinking) status += ' · thinking…';
  }
  if (watching()) status += ' · you are watching';
  else if (s.seats[0] === 'human' && s.seats[1] === 'human' && !!mine(0) !== !!mine(1)) {
    status += ` · you play ${s.sides[seatOf(mine(0) ? 0 : 1)]}`;
  }
  $('status').textContent = status;
  showClocks();
  $('notes').textContent = b.notes.join(' ');
  $('legend').textContent = b.hints.length > 0 && b.hint_meaning ? `✕ ${b.hint_meaning}` : '';
  const humanTurn = !s.ending && s.seats[s.actor] === 'human' && !s.thinking;
  $('stop').disabled = !s.thinking || !mine(s.actor);
  $('hint').disabled = !humanTurn || !mine(s.actor) || !!(s.opening && s.opening.asked);
  showOpening();
  $('undo').disabled = watching() || s.thinking || (s.moves.length === 0 && !(s.ending && /resigned/.test(s.ending.reason)));
  $('resign').disabled = watching() || !!s.ending || s.thinking || !s.seats.includes('human');
  showInvite();
  showExpiry();
  $('flip').hidden = !b.flippable;
  $('pieces').hidden = b.click !== 'from-to' || !chinese;
  $('pieces').textContent = letters ? 'Chinese pieces' : 'Letters';
  // A game with several notations (xiangqi: ICCS, WXF, Chinese) lets the reader choose.
  const names = (s.moves.length > 0 ? Object.keys(s.moves[0].notations) : [])
    .filter((n) => chinese || !/chinese/i.test(n));
  const pick = $('notation');
  if (names.join() !== [...pick.options].map((o) => o.value).join()) {
    const keep = pick.value;
    pick.replaceChildren(...names.map((n) => new Option(n, n)));
    if (names.includes(keep)) pick.value = keep;
  }
  pick.hidden = names.length === 0;
  const list = $('moves');
  list.replaceChildren();
  const worst = review && review.turns.length === s.moves.length ? review.worst : [];
  s.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = `${s.sides[m.side]}: ${m.notations[pick.value] ?? m.text}`;
    li.dataset.turn = i + 1;
    li.title = 'Show the position after this move';
    if (worst.includes(i)) {
      const t = review.turns[i];
      li.classList.add('worst');
      li.textContent += ` ?  (${t.score}${t.best ? `; better ${t.best}` : ''})`;
    }
    if (viewing ? viewing.turn === i + 1 : i === s.moves.length - 1) li.classList.add('current');
    li.addEventListener('click', () => viewTurn(i + 1));
    list.append(li);
  });
  if (!viewing) list.scrollTop = list.scrollHeight;
  $('review').disabled = s.thinking || watching() || s.moves.length === 0;
  if (review && review.turns.length !== s.moves.length) review = null;
  drawGraph();
}

// Shows the position after `turn` turns (a review); the game goes on underneath, and "Back
// to the game" shows it again.
async function viewTurn(turn) {
  if (!state) return;
  if (turn === state.moves.length) return backToGame();
  try {
    const r = await api('GET', `/api/games/${state.id}/board?turn=${turn}`);
    viewing = { turn, board: r.board };
    $('viewing').hidden = false;
    $('viewing-text').textContent = `Position after move ${turn} of ${state.moves.length}.`;
    show(state, true);
  } catch (e) {
    say(e.message);
  }
}

function backToGame() {
  viewing = null;
  $('viewing').hidden = true;
  if (state) show(state, true);
}

async function runReview() {
  say('The engine reviews the game…', 'info');
  try {
    review = await api('POST', `/api/games/${state.id}/review`, undefined, anyKey());
    const worst = review.worst.map((i) => `${i + 1}. ${review.turns[i].played}`);
    say(worst.length > 0 ? `Review: the turns that lost most: ${worst.join(', ')} (marked ?).` : 'Review: no turn lost much.', 'info');
    show(state, true);
  } catch (e) {
    say(e.message);
  }
}

// The evaluation over the game as a plot: the first side's view, clamped to ±10 units (a
// forced result at the edge); the worst turns dotted; a click shows that position.
function drawGraph() {
  const box = $('graph');
  if (!review || !state) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const n = review.turns.length;
  const W = 320, H = 120, cap = 1000;
  const x = (i) => 6 + (W - 12) * (n <= 1 ? 0 : i / (n - 1));
  const value = (t) => (t.mate !== null ? Math.sign(t.mate) * cap : Math.max(-cap, Math.min(cap, t.score_cp)));
  const y = (v) => H / 2 - (H / 2 - 6) * (v / cap);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, id: 'graph-svg', role: 'img', 'aria-label': 'evaluation graph' });
  svg.append(el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' }));
  svg.append(el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-zero' }));
  const points = review.turns.map((t, i) => `${x(i).toFixed(1)},${y(value(t)).toFixed(1)}`).join(' ');
  svg.append(el('polyline', { points, class: 'graph-line' }));
  review.turns.forEach((t, i) => {
    const dot = el('circle', { cx: x(i), cy: y(value(t)), r: review.worst.includes(i) ? 4.5 : 2.5, class: review.worst.includes(i) ? 'graph-worst' : 'graph-dot', 'data-graph-turn': i + 1 });
    const tip = el('title', {}, `${i + 1}. ${t.played}: ${t.score}`);
    dot.append(tip);
    dot.addEventListener('click', () => viewTurn(i + 1));
    svg.append(dot);
  });
  svg.append(el('text', { x: 4, y: 11, class: 'graph-label' }, `${state.sides[0]} better`));
  svg.append(el('text', { x: 4, y: H - 4, class: 'graph-label' }, `${state.sides[1]} better`));
  box.replaceChildren(svg);
}

function showInfo(info) {
  const nodes = info.nodes >= 1e6 ? `${(info.nodes / 1e6).toFixed(1)} M` : `${info.nodes}`;
  $('live').textContent = `depth ${info.depth} · ${info.score} · ${nodes} nodes · ${(info.time_ms / 1000).toFixed(1)} s · ${info.pv.join(' ')}`;
}

function cellName(b, f, r) {
  return b.file_labels[f] + b.row_labels[r];
}

function targetsOf(from) {
  return state.legal.filter((m) => m.startsWith(from)).map((m) => m.slice(from.length));
}

function el(name, attrs = {}, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// The opening rule's step: its prompt, a button for each choice, and the offer being made.
function showOpening() {
  const box = $('opening-box');
  const ask = asked();
  const s = state;
  box.hidden = !ask;
  if (!ask) return;
  const yours = s.seats[ask.seat] === 'human' && !!mine(ask.seat) && !s.thinking;
  const holds = s.sides[s.swapped ? 1 - ask.seat : ask.seat];
  const who = s.seats[ask.seat] === 'engine' ? `${holds} (the engine)` : yours ? `You (${holds})` : holds;
  $('opening-prompt').textContent = `${s.opening.rule}: ${who}: ${ask.prompt}`;
  const buttons = $('opening-choices');
  buttons.replaceChildren();
  if (yours && ask.kind === 'choose') {
    for (const c of ask.options) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = c.key;
      b.title = c.text;
      b.dataset.choice = c.key;
      b.addEventListener('click', () => send(c.key));
      buttons.append(b);
    }
  }
  if (yours && ask.kind === 'offer') {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'send-offer';
    b.textContent = `Offer ${offer.length} of ${ask.count}`;
    b.disabled = offer.length !== ask.count;
    b.addEventListener('click', () => send(offer.join(' ')));
    buttons.append(b);
  }
}

function drawBoard() {
  const b = viewing ? viewing.board : state.board;
  const W = 2 * M + S * (b.files - 1);
  const H = 2 * M + S * (b.rows - 1);
  const X = (f) => M + S * (flipped ? b.files - 1 - f : f);
  const Y = (r) => M + S * (flipped ? b.rows - 1 - r : r);
  $('board-box').style.setProperty('--aspect', (W / H).toFixed(4));
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, id: 'board-svg', role: 'img', 'aria-label': `${state.game} board` });
  svg.append(el('rect', { x: 0, y: 0, width: W, height: H, rx: 6, fill: '#e3b868' }));
  const grid = el('g', { class: 'grid' });
  for (let r = 0; r < b.rows; r++) grid.append(el('line', { x1: X(0), y1: Y(r), x2: X(b.files - 1), y2: Y(r) }));
  for (let f = 0; f < b.files; f++) {
    if (b.river && f > 0 && f < b.files - 1) {
      grid.append(el('line', { x1: X(f), y1: Y(0), x2: X(f), y2: Y(b.river.rows_above - 1) }));
      grid.append(el('line', { x1: X(f), y1: Y(b.river.rows_above), x2: X(f), y2: Y(b.rows - 1) }));
    } else {
      grid.append(el('line', { x1: X(f), y1: Y(0), x2: X(f), y2: Y(b.rows - 1) }));
    }
  }
  for (const p of b.palaces) {
    grid.append(el('line', { x1: X(p.from[0]), y1: Y(p.from[1]), x2: X(p.to[0]), y2: Y(p.to[1]) }));
    grid.append(el('line', { x1: X(p.to[0]), y1: Y(p.from[1]), x2: X(p.from[0]), y2: Y(p.to[1]) }));
  }
  svg.append(grid);
  if (b.river) {
    const y = (Y(b.river.rows_above - 1) + Y(b.river.rows_above)) / 2;
    if (chinese) {
      const names = flipped ? [...b.river.names].reverse() : b.river.names;
      svg.append(el('text', { x: X(0) + (X(b.files - 1) - X(0)) / 4, y, class: 'river' }, names[0]));
      svg.append(el('text', { x: X(0) + 3 * (X(b.files - 1) - X(0)) / 4, y, class: 'river' }, names[1]));
    } else {
      svg.append(el('text', { x: (X(0) + X(b.files - 1)) / 2, y, class: 'river' }, 'river'));
    }
  }
  if (b.click === 'point' && b.files >= 9 && b.files === b.rows) {
    // Star points: the centre and the corners' third or fourth lines.
    const d = b.files >= 13 ? 3 : 2;
    const c = (b.files - 1) / 2;
    const stars = Number.isInteger(c) ? [[c, c]] : [];
    for (const sx of [d, b.files - 1 - d]) for (const sy of [d, b.rows - 1 - d]) stars.push([sx, sy]);
    for (const [sx, sy] of stars) svg.append(el('circle', { cx: X(sx), cy: Y(sy), r: 3.5, fill: '#5a4320' }));
  }
  for (let f = 0; f < b.files; f++) {
    svg.append(el('text', { x: X(f), y: H - M * 0.4, class: 'label' }, b.file_labels[f]));
    svg.append(el('text', { x: X(f), y: M * 0.4, class: 'label' }, b.file_labels[f]));
  }
  for (let r = 0; r < b.rows; r++) {
    svg.append(el('text', { x: M * 0.4, y: Y(r), class: 'label' }, b.row_labels[r]));
    svg.append(el('text', { x: W - M * 0.4, y: Y(r), class: 'label' }, b.row_labels[r]));
  }
  for (const [f, r] of b.hints) {
    const k = S * 0.18;
    const g = el('g', { class: 'hint', 'data-hint': cellName(b, f, r) });
    g.append(el('line', { x1: X(f) - k, y1: Y(r) - k, x2: X(f) + k, y2: Y(r) + k }));
    g.append(el('line', { x1: X(f) - k, y1: Y(r) + k, x2: X(f) + k, y2: Y(r) - k }));
    svg.append(g);
  }
  // The opening's marks: where the next stone may go, the moves offered or being offered.
  const ask = asked();
  if (ask) {
    const marks = ask.kind === 'pick' ? ask.offered : ask.kind === 'offer' ? offer : ask.kind === 'place' ? ask.allowed : [];
    const cls = ask.kind === 'place' ? 'allowed' : 'offered';
    for (let r = 0; r < b.rows; r++) {
      for (let f = 0; f < b.files; f++) {
        const name = cellName(b, f, r);
        if (marks.includes(name)) svg.append(el('circle', { cx: X(f), cy: Y(r), r: cls === 'allowed' ? 4 : S * 0.3, class: cls, [`data-${cls}`]: name }));
      }
    }
  }
  for (let r = 0; r < b.rows; r++) {
    for (let f = 0; f < b.files; f++) {
      const p = b.cells[r * b.files + f];
      if (!p) continue;
      const name = cellName(b, f, r);
      if (b.click === 'from-to') {
        const red = p.side === 0 && b.red_first_side;
        svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.44, class: 'piece', 'data-piece': name }));
        svg.append(el('text', { x: X(f), y: Y(r) + 1, class: `piece-text ${red ? 'side-red' : 'side-black'}` }, letters ? p.letter : p.symbol));
      } else {
        svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.45, class: `stone-${p.side}`, 'data-stone': name, 'data-side': p.side }));
      }
    }
  }
  for (const [f, r] of b.last) {
    if (b.click === 'from-to') svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.49, class: 'last-ring' }));
    else if (b.cells[r * b.files + f]) svg.append(el('circle', { cx: X(f), cy: Y(r), r: 5, class: 'last', 'data-last': cellName(b, f, r) }));
  }
  for (const [f, r] of b.checks) svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.47, class: 'check' }));
  // The line that won: a ring round each of its stones and a stroke through them.
  const won = b.winning || [];
  const [a, z] = [won[0], won[won.length - 1]];
  const onOneLine = won.length > 1 && won.every(([f, r]) => (f - a[0]) * (z[1] - a[1]) === (r - a[1]) * (z[0] - a[0]));
  if (onOneLine) {
    const ends = [a, z];
    svg.append(el('line', { x1: X(ends[0][0]), y1: Y(ends[0][1]), x2: X(ends[1][0]), y2: Y(ends[1][1]), class: 'win-line' }));
  }
  for (const [f, r] of won) svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.47, class: 'win', 'data-win': cellName(b, f, r) }));
  if (selected) {
    for (let r = 0; r < b.rows; r++) {
      for (let f = 0; f < b.files; f++) {
        const name = cellName(b, f, r);
        if (name === selected) svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.48, class: 'selected' }));
        else if (targetsOf(selected).includes(name)) svg.append(el('circle', { cx: X(f), cy: Y(r), r: 6, class: 'target', 'data-target': name }));
      }
    }
  }
  if (suggestion) {
    for (let r = 0; r < b.rows; r++) {
      for (let f = 0; f < b.files; f++) {
        const name = b.click === 'column' ? b.file_labels[f] : cellName(b, f, r);
        if (suggestion.includes(name) && (b.click !== 'column' || r === 0)) {
          svg.append(el('circle', { cx: X(f), cy: Y(r), r: S * 0.46, class: 'suggest' }));
        }
      }
    }
  }
  // Click targets on top of everything: one per cell.
  for (let r = 0; r < b.rows; r++) {
    for (let f = 0; f < b.files; f++) {
      const spot = el('circle', { cx: X(f), cy: Y(r), r: S / 2, class: 'spot', 'data-cell': cellName(b, f, r) });
      spot.addEventListener('click', () => clicked(f, r));
      svg.append(spot);
    }
  }
  $('board').replaceChildren(svg);
}

async function send(text) {
  say('');
  try {
    show(await api('POST', `/api/games/${state.id}/move`, { move: text }, mine(state.actor)));
  } catch (e) {
    say(e.message);
  }
}

function clicked(f, r) {
  if (!state) return;
  if (viewing) return say(`This is the position after move ${viewing.turn}: press "Back to the game" to play.`);
  const b = state.board;
  if (state.ending) return say(`The game is over: ${state.ending.text}.`);
  if (state.thinking) return say('The engine is thinking: wait, or press "Move now".');
  if (state.seats[state.actor] !== 'human') return say("It is the engine's turn.");
  if (watching()) return say('You are watching this game: only its players move.');
  if (!mine(state.actor)) return say(`It is ${state.sides[seatOf(state.actor)]}'s turn: the other player moves.`);
  const name = cellName(b, f, r);
  const ask = asked();
  if (ask && ask.kind === 'choose') return say('Choose with the buttons beside the board.');
  if (ask && ask.kind === 'offer') {
    // Offers are collected, then sent together.
    offer = offer.includes(name) ? offer.filter((p) => p !== name) : [...offer, name].slice(0, ask.count);
    showOpening();
    return drawBoard();
  }
  if (ask && ask.kind === 'pick' && !ask.offered.includes(name)) {
    return say(`Pick one of the offered moves: ${ask.offered.join(' ')}.`);
  }
  if (b.click === 'point') return send(name);
  if (b.click === 'column') return send(b.file_labels[f]);
  const piece = b.cells[r * b.files + f];
  if (selected && selected !== name && (targetsOf(selected).includes(name) || !piece || piece.side !== state.to_move)) {
    const from = selected;
    selected = null;
    drawBoard();
    return send(from + name);
  }
  if (piece && piece.side === state.to_move) {
    selected = selected === name ? null : name;
    say('');
    return drawBoard();
  }
  selected = null;
  drawBoard();
  say(`Pick one of ${state.sides[state.to_move]}'s pieces first.`);
}

// The key an action is sent with: the side it acts for, when this browser holds it.
function keyFor(path) {
  const s = state;
  if (path === 'undo') {
    const resigned = s.ending && /resigned/.test(s.ending.reason) && s.ending.winner !== null;
    const last = s.moves.length > 0 ? s.moves[s.moves.length - 1].side : s.to_move;
    return mine(seatOf(resigned ? 1 - s.ending.winner : last)) || anyKey();
  }
  if (path === 'resign') {
    if (s.seats[s.actor] === 'human' && mine(s.actor)) return mine(s.actor);
    const human = s.seats.indexOf('human');
    return (human >= 0 && mine(human)) || anyKey();
  }
  return mine(s.actor);
}

async function action(path, after) {
  say('');
  try {
    const r = await api('POST', `/api/games/${state.id}/${path}`, undefined, keyFor(path));
    if (after) after(r);
    else if (r.id) show(r);
  } catch (e) {
    say(e.message);
  }
}

function init() {
  document.body.dataset.chinese = chinese;
  $('start-form').addEventListener('submit', startGame);
  $('game').addEventListener('change', fillRules);
  $('rule').addEventListener('change', fillOpenings);
  $('stop').addEventListener('click', () => action('stop', () => {}));
  $('undo').addEventListener('click', () => { selected = null; action('undo'); });
  $('resign').addEventListener('click', () => action('resign'));
  $('hint').addEventListener('click', () => {
    say('Thinking about a hint…', 'info');
    action('hint', (h) => {
      if (!h.bestmove) return say('No hint: the game is over.');
      suggestion = h.bestmove;
      const others = (h.lines || []).slice(1).map((l) => `${l.pv[0]} (${l.score})`);
      const also = others.length > 0 ? `; also ${others.join(', ')}` : '';
      say(`Hint: ${h.bestmove} (${h.score}, depth ${h.depth})${also}`, 'info');
      drawBoard();
    });
  });
  $('notation').addEventListener('change', () => show(state, true));
  $('flip').addEventListener('click', () => { flipped = !flipped; drawBoard(); });
  $('pieces').addEventListener('click', () => { letters = !letters; show(state, true); });
  $('new').addEventListener('click', () => { history.pushState(null, '', '/'); showStart(); });
  $('review').addEventListener('click', runReview);
  $('back').addEventListener('click', backToGame);
  window.addEventListener('popstate', route);
  setInterval(showExpiry, 1000);
  setInterval(showClocks, 100);
  showLimits();
  api('GET', '/api/catalog').then((c) => {
    catalog = c.games;
    const sel = $('game');
    for (const g of catalog) {
      const o = document.createElement('option');
      o.value = g.name;
      o.textContent = g.name;
      sel.append(o);
    }
    fillRules();
    route();
  }).catch((e) => { document.body.textContent = `qi: cannot reach the server (${e.message})`; });
}

// The server's limits, on the start screen.
async function showLimits() {
  try {
    limits = await api('GET', '/api/limits');
  } catch {
    return;
  }
  $('limits').textContent = `This server keeps at most ${limits.games} games open (${limits.games_open} now) `
    + `and drops a game after ${spanText(limits.idle_s)} without a move; `
    + `${limits.searches} engine search${limits.searches === 1 ? '' : 'es'} run at once, others wait their turn.`;
}

async function route() {
  const params = new URLSearchParams(location.search);
  const id = params.get('game');
  if (!id) {
    showLimits();
    return showStart();
  }
  // An invitation link: claim its seat once, then keep the plain game link.
  const invite = params.get('invite');
  let claimError = null;
  if (invite) {
    try {
      const seat = await api('POST', `/api/games/${id}/claim`, { invite });
      keepSeats(id, { seats: { [seat.side]: { key: seat.key, from: 'invite' } } });
    } catch (e) {
      claimError = e.message;
    }
    history.replaceState(null, '', `/?game=${id}`);
  }
  try {
    openGame(id, await api('GET', `/api/games/${id}`));
    if (claimError) say(claimError);
  } catch (e) {
    showStart();
    $('start-error').textContent = e.message;
  }
}

init();
