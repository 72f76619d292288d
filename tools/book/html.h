// `bookgen html`: one self-contained HTML page to click through the search-valued book from the
// empty board. The C++ side unfolds the book graph into a tree of real-orientation positions (a
// transposition appears once per path, up to a node limit, likeliest first) so that the page
// needs no symmetry code: it only draws boards and follows child indices.
#pragma once

#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "opening_book.h"
#include "tools/book/choose.h"
#include "tools/book/graph.h"

namespace yav::book {

struct PageMove {
  Cell cell = kNoCell;  // real orientation (a steal: the stolen stone's cell)
  Estimate estimate;    // minimaxed, for the player making the move
  DeepMove deep;        // the position's own search on the move
  uint32_t games = 0, halfPoints = 0;
  int child = -1;  // page node after the move, -1 when not unfolded
  bool shipped = false, repack = false;
};
struct PageNode {
  int parent = -1;
  Cell move = kNoCell;  // the move from the parent
  Estimate estimate;    // for the player to move
  std::vector<PageMove> moves;
};

// The page's tree: searched positions only, best-first by reach probability from the empty board
// (the opponent model of choose.h for both sides), at most `maxNodes`.
inline std::vector<PageNode> bookPageTree(const BookGraph& graph, const Choices& repack, const OpeningBook* shipped,
                                          size_t maxNodes, const GameModel& model = GameModel()) {
  std::vector<PageNode> nodes;
  std::vector<Board> boards;
  struct Item {
    double reach;
    int parent, moveIndex;
    Board board;
    bool operator<(const Item& o) const { return reach < o.reach; }
  };
  std::priority_queue<Item> queue;
  queue.push({1.0, -1, -1, Board()});
  while (!queue.empty() && nodes.size() < maxNodes) {
    const Item item = queue.top();
    queue.pop();
    const Canonical c = canonicalize(item.board);
    const BookGraph::Node* node = graph.find(c.key);
    if (!node) continue;
    const int self = int(nodes.size());
    PageNode page;
    page.parent = item.parent;
    page.estimate = node->estimate;
    if (item.parent >= 0) {
      PageMove& from = nodes[size_t(item.parent)].moves[size_t(item.moveIndex)];
      from.child = self;
      page.move = from.cell;
    }
    const std::optional<Cell> shippedMove = shipped ? shipped->lookup(item.board) : std::nullopt;
    auto it = repack.find(c.key);
    // Probabilities of the moves for the reach order: the game model's (choose.h).
    std::vector<std::pair<Cell, double>> odds = replyDistribution(graph, c.key, model);
    for (const BookGraph::Move& m : node->moves) {
      PageMove pm;
      pm.cell = c.fromCanonical(m.move);
      pm.estimate = m.estimate;
      pm.deep = m.deep;
      pm.games = m.games, pm.halfPoints = m.halfPoints;
      pm.shipped = shippedMove && c.toCanonical(*shippedMove) == m.move;
      pm.repack = it != repack.end() && it->second.move == m.move;
      page.moves.push_back(pm);
      if (m.child == BookGraph::kNone) continue;
      double p = 0;
      for (const auto& [move, q] : odds)
        if (move == m.move) p = q;
      Board next = item.board;
      if (p > 0 && next.play(pm.cell) == Outcome::None)
        queue.push({item.reach * p, self, int(page.moves.size() - 1), next});
    }
    nodes.push_back(std::move(page));
  }
  return nodes;
}

namespace html_detail {

inline std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", v);
  return text;
}
inline const char* proofCode(Proof p) {
  return p == Proof::Win ? "W" : p == Proof::Loss ? "L" : p == Proof::Draw ? "D" : "";
}

}  // namespace html_detail

// The tree as JSON: {"cells":[[x,y],...], "nodes":[{"p":parent,"m":move,"e":[mean,lo,hi,"proof"],
// "mv":[[cell,mean,lo,hi,"proof",deepValue,"deepProof",visits,games,halfPoints,child,shipped,repack],...]},...]}
inline std::string bookPageJson(const std::vector<PageNode>& nodes) {
  using namespace html_detail;
  std::string out = "{\"cells\":[";
  for (Cell c = 0; c < kCells; ++c) {
    const std::string name = cellName(c);  // "x y"
    out += (c ? ",[" : "[") + name.substr(0, name.find(' ')) + "," + name.substr(name.find(' ') + 1) + "]";
  }
  out += "],\"nodes\":[";
  for (size_t i = 0; i < nodes.size(); ++i) {
    const PageNode& n = nodes[i];
    out += std::string(i ? "," : "") + "{\"p\":" + std::to_string(n.parent) + ",\"m\":" + std::to_string(int(n.move)) +
           ",\"e\":[" + number(n.estimate.mean) + "," + number(n.estimate.lower) + "," + number(n.estimate.upper) +
           ",\"" + proofCode(n.estimate.proof) + "\"],\"mv\":[";
    for (size_t j = 0; j < n.moves.size(); ++j) {
      const PageMove& m = n.moves[j];
      out += std::string(j ? "," : "") + "[" + std::to_string(int(m.cell)) + "," + number(m.estimate.mean) + "," +
             number(m.estimate.lower) + "," + number(m.estimate.upper) + ",\"" + proofCode(m.estimate.proof) + "\"," +
             number(m.deep.value) + ",\"" + proofCode(m.deep.proof) + "\"," + std::to_string(m.deep.visits) + "," +
             std::to_string(m.games) + "," + std::to_string(m.halfPoints) + "," + std::to_string(m.child) + "," +
             (m.shipped ? "1" : "0") + "," + (m.repack ? "1" : "0") + "]";
    }
    out += "]}";
  }
  return out + "]}";
}

// The whole page: the data, an SVG board and a move table, with plain JavaScript to walk the tree.
inline std::string bookPageHtml(const std::vector<PageNode>& nodes, const std::string& title) {
  return R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>)HTML" +
         title + R"HTML(</title>
<style>
body{font-family:sans-serif;margin:16px;color:#222}
#wrap{display:flex;gap:24px;align-items:flex-start}
table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}tr.click{cursor:pointer}tr.click:hover{background:#eef}
.note{font-size:13px;color:#555;max-width:900px}button{margin-right:6px}
</style></head><body>
<h2>)HTML" +
         title + R"HTML(</h2>
<p class="note">Values are for the player <b>making</b> the move (0 = loss, 1 = win): the mean minimaxed
through the book, its lower and upper bounds, and proofs. "deep" is the position's own deep search
(value and visits); "games" the self-play games. <b>S</b> (orange ring) marks the move in the
<b>shipped</b> header (book/embedded_book.h), <b>R</b> (blue ring) what a <b>re-pack</b> of the database
would ship. Click a searched move (a cell with a number, or a table row) to follow it.</p>
<div><button onclick="go(0)">Empty board</button><button onclick="back()">Back</button><span id="path"></span></div>
<div id="wrap"><svg id="board" width="520" height="470" viewBox="0 0 520 470"></svg><div id="table"></div></div>
<script>
const BOOK = )HTML" +
         bookPageJson(nodes) +
         R"HTML(;
let cur = 0;
const R = 27, DX = R * 1.9, DY = R * 1.65;
function xy(c) { const [x, y] = BOOK.cells[c]; const len = 9 - Math.abs(4 - y); return [40 + (9 - len) * DX / 2 + x * DX, 40 + y * DY]; }
function line(i) { const out = []; while (i > 0) { out.push(BOOK.nodes[i].m); i = BOOK.nodes[i].p; } return out.reverse(); }
function stones(moves) {
  const owner = new Array(61).fill(0);
  moves.forEach((c, k) => { if (owner[c]) owner[c] = 3 - owner[c]; else owner[c] = k % 2 ? 2 : 1; });
  return owner;
}
function name(c) { return BOOK.cells[c].join(' '); }
function go(i) { cur = i; draw(); }
function back() { if (cur > 0) go(BOOK.nodes[cur].p); }
function fmt(v) { return v.toFixed(3); }
function draw() {
  const node = BOOK.nodes[cur], moves = line(cur), owner = stones(moves), toMove = moves.length % 2 + 1;
  document.getElementById('path').textContent = ' moves: ' + (moves.length ? moves.map(name).join('; ') : '(none)') +
    ' | player ' + toMove + ' to move, position value for player ' + toMove + ': ' + fmt(node.e[0]) +
    ' (' + fmt(node.e[1]) + '..' + fmt(node.e[2]) + ')' + (node.e[3] ? ' proof ' + node.e[3] : '');
  const svg = [];
  const byCell = {};
  node.mv.forEach(m => byCell[m[0]] = m);
  for (let c = 0; c < 61; c++) {
    const [x, y] = xy(c);
    const fill = owner[c] === 1 ? '#222' : owner[c] === 2 ? '#f4f4f4' : '#d9c9a3';
    svg.push(`<circle cx="${x}" cy="${y}" r="${R * 0.9}" fill="${fill}" stroke="#888"/>`);
    const m = byCell[c];
    if (!m) continue;
    const label = m[4] === 'W' ? 'W' : m[4] === 'L' ? 'L' : Math.round(m[1] * 100);
    const color = owner[c] ? (owner[c] === 1 ? '#fff' : '#000') : (m[4] === 'L' ? '#a00' : m[4] === 'W' ? '#070' : '#000');
    if (m[11]) svg.push(`<circle cx="${x}" cy="${y}" r="${R * 0.8}" fill="none" stroke="#e67e00" stroke-width="4"/>`);
    if (m[12]) svg.push(`<circle cx="${x}" cy="${y}" r="${R * 0.62}" fill="none" stroke="#1565c0" stroke-width="3"/>`);
    svg.push(`<text x="${x}" y="${y + 5}" text-anchor="middle" font-size="14" fill="${color}"` +
             (m[10] >= 0 ? ` style="cursor:pointer;font-weight:bold" onclick="go(${m[10]})"` : '') + `>${label}</text>`);
  }
  document.getElementById('board').innerHTML = svg.join('');
  const rows = node.mv.slice().sort((a, b) => b[1] - a[1]).map(m =>
    `<tr class="${m[10] >= 0 ? 'click' : ''}" ${m[10] >= 0 ? `onclick="go(${m[10]})"` : ''}><td class="l">${name(m[0])}${owner[m[0]] ? ' (steal)' : ''}</td>` +
    `<td>${fmt(m[1])}</td><td>${fmt(m[2])}..${fmt(m[3])}</td><td>${m[4]}</td><td>${m[6] || fmt(m[5])}</td><td>${m[7]}</td>` +
    `<td>${m[8] ? m[8] + ', ' + Math.round(50 * m[9] / m[8]) + '%' : '-'}</td><td class="l">${m[11] ? 'S ' : ''}${m[12] ? 'R ' : ''}${m[10] >= 0 ? '&rarr;' : ''}</td></tr>`);
  document.getElementById('table').innerHTML = '<table><tr><th class="l">move</th><th>value</th><th>bounds</th><th>proof</th>' +
    '<th>deep</th><th>visits</th><th>games</th><th class="l">marks</th></tr>' + rows.join('') + '</table>' +
    '<p class="note">' + node.mv.filter(m => m[10] >= 0).length + ' of ' + node.mv.length + ' moves lead to searched positions on this page.</p>';
}
draw();
</script></body></html>
)HTML";
}

}  // namespace yav::book
