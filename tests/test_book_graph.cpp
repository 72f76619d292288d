// The search-valued book: minimax of values, bounds and proofs through the graph of canonical
// positions (checked against brute force on the boards themselves), the growth's choice of what to
// expand, the packer's choices, the database file with verdict visits, and merging.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <chrono>
#include <cstdlib>
#include <random>
#include <thread>
#include <sstream>

#include "opening_book.h"
#include "tests/hash_evaluator.h"
#include "tests/random_positions.h"
#include "tests/test_util.h"
#include "tools/book/choose.h"
#include "tools/book/db_folder.h"
#include "tools/book/graph.h"
#include "tools/book/grow.h"
#include "tools/book/html.h"
#include "tools/book/position_index.h"

using namespace yav;
using namespace yav::book;

namespace {

// A random undecided position with `stones` stones (few empty cells: small complete game trees).
Board randomEndgame(uint64_t seed, int stones) {
  Rng rng(seed);
  for (;;) {
    testing_positions::Pair p;
    if (testing_positions::randomPosition(rng, stones, p) && !p.fast.winningCells(p.fast.toMove())) return p.fast;
  }
}

// Exact game value for the side to move: +1 win, 0 draw, -1 loss (plain negamax on the rules).
int solve(const Board& b) {
  int best = -2;
  for (Bitboard legal = b.legalMoves(); legal;) {
    Board next = b;
    const Outcome o = next.play(popLowest(legal));
    const int v = o == Outcome::Win ? 1 : o == Outcome::Loss ? -1 : o == Outcome::Draw ? 0 : -solve(next);
    best = std::max(best, v);
    if (best == 1) break;
  }
  return best == -2 ? 0 : best;
}

// A verdict on every canonical move of `key`, with values and visits drawn from `rng` and, when
// `proofShare` > 0, some search proofs drawn at random too.
DeepVerdict randomVerdict(const PositionKey& key, std::mt19937_64& rng, double proofShare) {
  const Board b = boardOf(key);
  const Canonical c = canonicalize(b);
  DeepVerdict v;
  std::uniform_real_distribution<double> u(0, 1);
  for (Cell m : moveClasses(b)) {
    DeepMove d;
    d.move = c.toCanonical(m);
    d.value = float(u(rng));
    d.visits = u(rng) < 0.2 ? 0 : uint32_t(rng() % 300);
    const double r = u(rng);
    d.proof = r < proofShare / 2 ? Proof::Win : r < proofShare ? Proof::Loss : Proof::Unknown;
    v.moves.push_back(d);
  }
  v.best = v.moves.front().move;
  return v;
}

// Every position reachable from `start` within `depth` plies (canonical keys), each with a verdict.
std::map<PositionKey, DeepVerdict> expandAll(const Board& start, int depth, std::mt19937_64& rng, double proofShare) {
  std::map<PositionKey, DeepVerdict> out;
  std::function<void(const Board&, int)> walk = [&](const Board& b, int left) {
    const PositionKey key = canonicalize(b).key;
    if (left == 0 || out.count(key)) return;
    out[key] = randomVerdict(key, rng, proofShare);
    for (Cell m : moveClasses(b)) {
      Board next = b;
      if (next.play(m) == Outcome::None) walk(next, left - 1);
    }
  };
  walk(start, depth);
  return out;
}

BookGraph graphOf(const std::map<PositionKey, DeepVerdict>& verdicts) {
  BookGraph g;
  for (const auto& [key, v] : verdicts) g.add(key, v, nullptr);  // map order: parents and children mixed
  g.evaluate();
  return g;
}

// Brute force: the same rules as graph.h, recomputed on real boards (every symmetry and
// transposition resolved again by canonicalising each board on the way).
Estimate bruteForce(const Board& b, const std::map<PositionKey, DeepVerdict>& verdicts, const BookGraph& rules) {
  const Canonical c = canonicalize(b);
  const DeepVerdict& v = verdicts.at(c.key);
  const SiblingValues siblings = SiblingValues::of(v.moves, [](const DeepMove& d) -> const DeepMove& { return d; });
  // Of the move the book would choose: trusted first (expanded, or a tenth of the most visits),
  // then the best lower bound, then the mean.
  Estimate best{0, 0, 0, Proof::Unknown};
  bool anyWin = false, allLost = true, chosen = false, bestTrusted = false;
  uint32_t most = 0;
  for (const DeepMove& d : v.moves) most = std::max(most, d.visits);
  for (const DeepMove& d : v.moves) {
    Board next = b;
    const Outcome o = next.play(c.fromCanonical(d.move));
    const bool trusted =
        (o == Outcome::None && verdicts.count(canonicalize(next).key)) || uint64_t(d.visits) * 10 >= most;
    Estimate e;
    if (o == Outcome::Win)
      e = Estimate::proven(Proof::Win);
    else if (o == Outcome::Loss)
      e = Estimate::proven(Proof::Loss);
    else if (o == Outcome::Draw)
      e = {0.5, 0.5, 0.5, Proof::Draw};
    else {
      const bool expanded = verdicts.count(canonicalize(next).key) > 0;
      const Estimate child = expanded ? bruteForce(next, verdicts, rules) : Estimate{};
      if (expanded && (child.proof == Proof::Win || child.proof == Proof::Loss))
        e = Estimate::proven(flipProof(child.proof));
      else if (d.proof == Proof::Win || d.proof == Proof::Loss)
        e = Estimate::proven(d.proof);
      else if (expanded)
        e = child.flipped();
      else
        e = rules.leafEstimate(d, 0, 0, siblings);
    }
    anyWin |= e.proof == Proof::Win;
    allLost &= e.proof == Proof::Loss;
    const bool lost = e.proof == Proof::Loss,
               better = e.lower > best.lower || (e.lower == best.lower && e.mean > best.mean);
    if (!lost && (!chosen || (trusted && !bestTrusted) || (trusted == bestTrusted && better)))
      best = {e.mean, e.lower, e.upper, Proof::Unknown}, chosen = true, bestTrusted = trusted;
  }
  return anyWin ? Estimate::proven(Proof::Win) : allLost ? Estimate::proven(Proof::Loss) : best;
}

}  // namespace

// Growth adds one position at a time and updates only the estimates it changes (BookGraph::update):
// after every add, in any order of adding (children first, parents first, mixed), every node's and
// every move's estimate equals a full evaluation's, and each node's parents are exactly the nodes
// with a move into it.
TEST(BookGraph, UpdatingAfterEachAddGivesWhatAFullEvaluationGives) {
  std::mt19937_64 rng(21);
  const std::map<PositionKey, DeepVerdict> verdicts = expandAll(Board(), 4, rng, 0.08);
  std::vector<std::pair<PositionKey, DeepVerdict>> order(verdicts.begin(), verdicts.end());
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1) std::reverse(order.begin(), order.end());
    if (pass == 2) std::shuffle(order.begin(), order.end(), rng);
    BookGraph g;
    g.evaluate();
    size_t added = 0, proven = 0;
    for (const auto& [key, v] : order) {
      g.add(key, v, nullptr);
      g.update(key);
      if (++added % 97 != 0 && added != order.size()) continue;
      BookGraph full = g;
      full.evaluate();
      for (size_t i = 0; i < g.size(); ++i) {
        const BookGraph::Node &a = g.nodes()[i], &b = full.nodes()[i];
        ASSERT_TRUE(a.estimate == b.estimate) << "pass " << pass << ", after " << added << " adds, node " << i;
        for (size_t j = 0; j < a.moves.size(); ++j) ASSERT_TRUE(a.moves[j].estimate == b.moves[j].estimate);
        proven += a.estimate.proof != Proof::Unknown;
      }
    }
    EXPECT_GT(proven, 0u);  // proofs propagate through the updates too
    std::vector<std::vector<int>> parents(g.size());
    for (size_t i = 0; i < g.size(); ++i)
      for (const BookGraph::Move& m : g.nodes()[i].moves)
        if (m.child != BookGraph::kNone &&
            (parents[size_t(m.child)].empty() || parents[size_t(m.child)].back() != int(i)))
          parents[size_t(m.child)].push_back(int(i));
    for (size_t i = 0; i < g.size(); ++i) {
      std::vector<int> have = g.nodes()[i].parents;
      std::sort(have.begin(), have.end());
      EXPECT_EQ(have, parents[i]) << "node " << i;
    }
  }
}

// Loading a database expands every node first and links them from the children's side afterwards.
// That is the graph that adding the positions one by one in the same order gives: every move
// linked to the same child, the same parents, the same estimates.
TEST(BookGraph, LoadingADatabaseLinksAsAddingOneByOne) {
  std::mt19937_64 rng(5);
  Database db;
  for (const auto& [key, v] : expandAll(Board(), 4, rng, 0.05)) db.setVerdict("engine/1it", key, v);
  const BookGraph loaded = BookGraph::fromDatabase(db, "engine/1it");
  BookGraph added;
  for (const auto& [key, v] : db.verdicts().at("engine/1it")) added.add(key, v, nullptr);
  added.evaluate();
  ASSERT_EQ(loaded.size(), added.size());
  size_t links = 0;
  for (size_t i = 0; i < loaded.size(); ++i) {
    const BookGraph::Node &a = loaded.nodes()[i], &b = added.nodes()[i];
    ASSERT_TRUE(a.key == b.key) << "node " << i;
    ASSERT_EQ(a.moves.size(), b.moves.size()) << "node " << i;
    for (size_t j = 0; j < a.moves.size(); ++j) {
      ASSERT_EQ(a.moves[j].child, b.moves[j].child) << "node " << i << ", move " << j;
      ASSERT_TRUE(a.moves[j].estimate == b.moves[j].estimate) << "node " << i << ", move " << j;
      links += a.moves[j].child != BookGraph::kNone;
    }
    ASSERT_TRUE(a.estimate == b.estimate) << "node " << i;
    std::vector<int> pa = a.parents, pb = b.parents;
    std::sort(pa.begin(), pa.end()), std::sort(pb.begin(), pb.end());
    ASSERT_EQ(pa, pb) << "node " << i;
  }
  EXPECT_GT(links, loaded.size() / 2);
}

// The graph's index against std::map: random keys (stones anywhere on the board, the steal flag
// either way, some keys twice) stored in an index grown from empty, and every key stored, and as
// many never stored, looked up after each growth.
TEST(PositionIndex, AgreesWithAMap) {
  std::mt19937_64 rng(3);
  auto randomKey = [&] {
    const Bitboard a = rng() & rng() & kFullBoard, b = rng() & rng() & kFullBoard & ~a;
    return PositionKey{a, b, bool(rng() & 1)};
  };
  PositionIndex index;
  std::map<PositionKey, int> reference;
  std::vector<PositionKey> keys;
  EXPECT_EQ(index.find(randomKey()), PositionIndex::kAbsent);
  for (int n = 0; n < 20000; ++n) {
    const PositionKey k = n % 10 == 9 ? keys[rng() % keys.size()] : randomKey();
    const bool fresh = reference.emplace(k, n).second;
    ASSERT_EQ(index.insert(k, n), fresh) << "insert " << n;
    if (fresh) keys.push_back(k);
    ASSERT_EQ(index.size(), reference.size());
    if ((n & (n - 1)) != 0 && n != 19999) continue;  // after each doubling, and at the end
    for (const auto& [key, value] : reference) ASSERT_EQ(index.find(key), value);
    for (int i = 0; i < 1000; ++i) {
      PositionKey absent = keys[rng() % keys.size()];
      absent.stealAvailable = !absent.stealAvailable;  // the same stones: only the flag differs
      if (i % 2) absent = randomKey();
      const auto it = reference.find(absent);
      ASSERT_EQ(index.find(absent), it == reference.end() ? PositionIndex::kAbsent : it->second);
    }
  }
}

// A move is linked to its child exactly when the child is expanded, whatever order the positions
// are added in: children before parents (found from the child's key: the position before one of
// the last mover's stones, or before a steal) or parents first. Four plies from the empty board
// take in the steal, the positions after it and their replies.
TEST(BookGraph, MovesLinkToExpandedChildrenInAnyOrderOfAdding) {
  std::mt19937_64 rng(11);
  const std::map<PositionKey, DeepVerdict> verdicts = expandAll(Board(), 4, rng, 0);
  std::vector<std::pair<PositionKey, DeepVerdict>> order(verdicts.begin(), verdicts.end());
  size_t steals = 0;
  for (const auto& [key, v] : verdicts) steals += !key.mine && !key.stealAvailable && popcount(key.theirs) == 1;
  ASSERT_GT(steals, 0u);  // the positions right after a steal are among them
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1) std::reverse(order.begin(), order.end());
    if (pass == 2) std::shuffle(order.begin(), order.end(), rng);
    BookGraph g;
    for (const auto& [key, v] : order) g.add(key, v, nullptr);
    size_t linked = 0;
    for (const BookGraph::Node& node : g.nodes())
      for (const BookGraph::Move& m : node.moves) {
        if (m.ends != Outcome::None) continue;
        ASSERT_EQ(m.child != BookGraph::kNone, verdicts.count(m.childKey) == 1) << "pass " << pass;
        if (m.child == BookGraph::kNone) continue;
        EXPECT_EQ(g.nodes()[size_t(m.child)].key, m.childKey);
        ++linked;
      }
    EXPECT_GT(linked, verdicts.size());  // transpositions: more links than positions
  }
}

TEST(BookGraph, MinimaxAgreesWithBruteForceOnTheBoardsThemselves) {
  std::mt19937_64 rng(7);
  int compared = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    // Early positions have symmetries (canonical move names matter); late ones transpositions.
    const Board start = seed % 3 == 0 ? Board() : randomEndgame(seed, seed % 3 == 1 ? 2 : 50);
    const auto verdicts = expandAll(start, seed % 3 == 1 ? 2 : 3, rng, 0.05);
    const BookGraph g = graphOf(verdicts);
    ASSERT_EQ(g.size(), verdicts.size());
    for (const auto& [key, v] : verdicts) {
      const Estimate want = bruteForce(boardOf(key), verdicts, g);
      const Estimate& got = g.find(key)->estimate;
      ASSERT_EQ(int(got.proof), int(want.proof));
      ASSERT_NEAR(got.mean, want.mean, 1e-12);
      ASSERT_NEAR(got.lower, want.lower, 1e-12);
      ASSERT_NEAR(got.upper, want.upper, 1e-12);
      ++compared;
    }
  }
  EXPECT_GT(compared, 1000);
}

TEST(BookGraph, ProofsPropagateExactlyThroughACompleteGraph) {
  // Complete graphs of small endgames with no search proofs: only the rules' wins and losses at the
  // ends. A position must then be proven won iff it is won, and proven lost iff it is lost.
  std::mt19937_64 rng(11);
  int won = 0, lost = 0, open = 0;
  for (uint64_t seed = 100; seed < 120; ++seed) {
    const Board start = randomEndgame(seed, 54);
    const auto verdicts = expandAll(start, 61, rng, 0.0);
    const BookGraph g = graphOf(verdicts);
    for (const auto& [key, v] : verdicts) {
      const int exact = solve(boardOf(key));
      const Proof p = g.find(key)->estimate.proof;
      ASSERT_EQ(p == Proof::Win, exact == 1);
      ASSERT_EQ(p == Proof::Loss, exact == -1);
      won += exact == 1, lost += exact == -1, open += exact == 0;
    }
  }
  EXPECT_GT(won, 50);
  EXPECT_GT(lost, 50);
}

TEST(BookGraph, AProofFromAnyOneMoveOrFromEveryMove) {
  // One position, two moves: proving one move won proves the position; one move lost does not.
  const Board b = randomEndgame(5, 40);
  const PositionKey key = canonicalize(b).key;
  std::mt19937_64 rng(3);
  DeepVerdict v = randomVerdict(key, rng, 0.0);
  auto proofOf = [&key](const DeepVerdict& verdict) {
    BookGraph g;
    g.add(key, verdict, nullptr);
    g.evaluate();
    return g.find(key)->estimate.proof;
  };
  for (DeepMove& d : v.moves) d.proof = Proof::Loss;
  v.moves.back().proof = Proof::Unknown;
  EXPECT_EQ(proofOf(v), Proof::Unknown);
  v.moves.back().proof = Proof::Loss;
  EXPECT_EQ(proofOf(v), Proof::Loss);
  v.moves.pop_back();  // a verdict missing a legal move proves no loss
  EXPECT_EQ(proofOf(v), Proof::Unknown);
  v.moves.front().proof = Proof::Win;
  EXPECT_EQ(proofOf(v), Proof::Win);
}

TEST(BookGraph, GamesNarrowALeafAndMoveItsMean) {
  BookGraph g;
  DeepMove d;
  d.value = 0.6f;
  d.visits = 1000;
  const Estimate searchOnly = g.leafEstimate(d, 0, 0);
  EXPECT_NEAR(searchOnly.mean, 0.6, 1e-6);
  EXPECT_NEAR(searchOnly.upper - searchOnly.lower, 2 * 2 * 0.5 / std::sqrt(100.0), 1e-6);  // visits capped at 100
  const Estimate withGames = g.leafEstimate(d, 300, 2 * 30);                               // 300 games, 10% won
  EXPECT_LT(withGames.mean, 0.3);
  EXPECT_LT(withGames.upper - withGames.lower, searchOnly.upper - searchOnly.lower);
  d.visits = 0;  // never visited: valued as the worst visited sibling, not as the search's 0.5
  EXPECT_NEAR(g.leafEstimate(d, 0, 0, {0.2, 1}).mean, 0.2, 1e-6);
}

// A few-visit move valued above the search's choice keeps only visits / (visits + 100) of its
// excess: 9 visits at 0.889 against a most visited move at 0.5 is noise, not a better move.
// The book plays a move the evidence trusts: an expanded move, whose minimaxed value the opponent's
// choice makes lower, is not passed over for a sibling the search gave a hundredth of its visits.
TEST(BookGraph, TheBookMoveIsOneTheSearchOrTheGraphTrusts) {
  Board b;
  const Cell main = cellAt(3, 2), rejected = cellAt(1, 1);
  DeepVerdict root;
  for (Cell m : moveClasses(b))
    root.moves.push_back({m,
                          m == main       ? 0.5f
                          : m == rejected ? 0.5f
                                          : 0.3f,
                          Proof::Unknown,
                          m == main       ? 100000u
                          : m == rejected ? 122u
                                          : 5000u});
  root.best = main;
  Board after = b;
  after.play(main);
  DeepVerdict reply;  // the opponent's best reply after `main` is worth 0.54 to it
  for (Cell m : moveClasses(after))
    reply.moves.push_back({m, m == moveClasses(after).front() ? 0.54f : 0.4f, Proof::Unknown, 20000});
  reply.best = moveClasses(after).front();
  Database db;
  const std::string key = GrowOptions().deep.key();
  db.setVerdict(key, PositionKey{}, root);
  db.setVerdict(key, canonicalize(after).key, reply);
  const BookGraph g = BookGraph::fromDatabase(db, key);
  const BookGraph::Node* node = g.find(PositionKey{});
  ASSERT_NE(node, nullptr);
  const BookGraph::Move* chosen = BookGraph::choice(*node);
  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(chosen->move, main);
  for (const BookGraph::Move& m : node->moves)
    if (m.move == rejected) {
      EXPECT_GT(m.estimate.lower, chosen->estimate.lower);  // the bound alone would pick it
    }
}

TEST(BookGraph, AFewVisitLeafAboveTheSearchsChoiceIsShrunk) {
  BookGraph g;
  DeepMove lucky;
  lucky.value = 0.889f;
  lucky.visits = 9;
  const Estimate shrunk = g.leafEstimate(lucky, 0, 0, {0.3, 0.5});
  EXPECT_NEAR(shrunk.mean, 0.5 + (0.889 - 0.5) * 9 / 109, 1e-6);
  DeepMove chosen;
  chosen.value = 0.5f;
  chosen.visits = 30000;
  EXPECT_LT(shrunk.lower, g.leafEstimate(chosen, 0, 0, {0.3, 0.5}).lower);
  DeepMove worse = lucky;
  worse.value = 0.4f;  // below the search's choice: kept as it is
  EXPECT_NEAR(g.leafEstimate(worse, 0, 0, {0.3, 0.5}).mean, 0.4, 1e-6);
}

namespace {

// The empty board's verdict: one first move much better than the rest (or proven lost).
std::map<PositionKey, DeepVerdict> handMadeRoot(Cell good, Proof goodProof) {
  DeepVerdict v;
  for (Cell m : moveClasses(Board()))
    v.moves.push_back({m, m == good ? 0.9f : 0.3f, m == good ? goodProof : Proof::Unknown, 100});
  v.best = good;
  return {{PositionKey{}, v}};
}

// Growth whose lines start from one or two random stones in these shares (the rest: the empty board).
GrowOptions withStarts(double oneStone, double twoStones) {
  GrowOptions o;
  o.model.oneStoneShare = oneStone;
  o.model.twoStoneShare = twoStones;
  return o;
}
GrowOptions firstPlayerOnly() { return withStarts(0, 0); }

// The verdict of position `b` where `win` is proven won, the deep search having spent `winVisits`
// on it and `otherVisits` on each other move class.
DeepVerdict wonBy(const Board& b, Cell win, uint32_t winVisits, uint32_t otherVisits) {
  DeepVerdict v;
  for (Cell m : moveClasses(b))
    v.moves.push_back(
        {m, m == win ? 1.0f : 0.3f, m == win ? Proof::Win : Proof::Unknown, m == win ? winVisits : otherVisits});
  v.best = win;
  return v;
}
DeepVerdict emptyBoardWonBy(Cell win, uint32_t winVisits, uint32_t otherVisits) {
  return wonBy(Board(), win, winVisits, otherVisits);
}

}  // namespace

TEST(BookGrowth, ExpandsTheBestLineMostAndNeverAProvenLoss) {
  const Cell good = cellAt(3, 2);
  Board after;
  after.play(good);
  const PositionKey goodChild = canonicalize(after).key;
  for (Proof proof : {Proof::Unknown, Proof::Loss}) {
    Database db;
    for (const auto& [key, v] : handMadeRoot(good, proof)) db.setVerdict(GrowOptions().deep.key(), key, v);
    Grower grower(db, firstPlayerOnly(), nullptr);
    std::mt19937_64 rng(1);
    int picked = 0;
    for (int i = 0; i < 1000; ++i) {
      const auto leaf = grower.pickLeaf(rng);
      ASSERT_TRUE(leaf.has_value());
      picked += *leaf == goodChild;
    }
    if (proof == Proof::Unknown)
      EXPECT_GT(picked, 990);  // 0.9 +- 0.1 against 0.3 +- 0.1
    else
      EXPECT_EQ(picked, 0);
  }
}

// The bot's own moves follow its book move (best lower bound), not the Thompson draw, in the
// share --book-move-share: a move with a higher mean but few visits (wide bounds) is the one
// Thompson sampling prefers and the book does not play.
TEST(BookGrowth, TheBotsMovesFollowTheBookMoveInTheirShare) {
  const Cell solid = cellAt(3, 2), risky = cellAt(1, 1);
  DeepVerdict v;
  for (Cell m : moveClasses(Board()))
    v.moves.push_back({m,
                       m == solid   ? 0.6f
                       : m == risky ? 0.75f
                                    : 0.3f,
                       Proof::Unknown,
                       m == risky   ? 20u
                       : m == solid ? 200u
                                    : 100u});
  v.best = solid;
  auto childOf = [](Cell m) {
    Board b;
    b.play(m);
    return canonicalize(b).key;
  };
  for (double share : {1.0, 0.0}) {
    Database db;
    db.setVerdict(GrowOptions().deep.key(), PositionKey{}, v);
    GrowOptions o = firstPlayerOnly();
    o.bookMoveShare = share;
    Grower grower(db, o, nullptr);
    const BookGraph::Node* root = grower.graph().find(PositionKey{});
    ASSERT_NE(root, nullptr);
    ASSERT_EQ(bookMove(*root)->move, solid);
    std::mt19937_64 rng(3);
    int solidPicks = 0, riskyPicks = 0;
    for (int i = 0; i < 1000; ++i) {
      const PositionKey leaf = *grower.pickLeaf(rng);
      solidPicks += leaf == childOf(solid);
      riskyPicks += leaf == childOf(risky);
    }
    if (share == 1.0)
      EXPECT_EQ(solidPicks, 1000);
    else
      EXPECT_GT(riskyPicks, 400);  // its mean 0.625 +- 0.1 against 0.6 +- 0.05
  }
}

// The opponent replies as a strong MCTS player would: in proportion to the deep search's visits,
// with a share spread evenly (GameModel::uniform), not by the replies' values (a few-visit reply
// valued higher is noise, and the bot at 75 ms seldom plays it). The packer's reach order and the
// growth's lines draw from that same distribution.
TEST(BookGrowth, TheOpponentsRepliesFollowTheSearchsVisits) {
  const Cell first = cellAt(3, 2);
  Board afterFirst;
  afterFirst.play(first);
  const Canonical frame = canonicalize(afterFirst);
  const Board canonical = boardOf(frame.key);
  DeepVerdict reply;
  std::vector<Cell> classes = moveClasses(canonical);
  const Cell popular = classes[classes.size() / 2];
  for (Cell m : classes)  // the popular reply: most visits, lowest value
    reply.moves.push_back({m, m == popular ? 0.45f : 0.55f, Proof::Unknown, m == popular ? 900u : 10u});
  reply.best = popular;
  Database db;
  db.setVerdict(GrowOptions().deep.key(), PositionKey{}, handMadeRoot(first, Proof::Unknown).at(PositionKey{}));
  db.setVerdict(GrowOptions().deep.key(), frame.key, reply);
  GrowOptions o = firstPlayerOnly();
  o.bookMoveShare = 1;
  o.opponentExploreShare = 0;
  Grower grower(db, o, nullptr);

  const double n = double(classes.size()), visits = 900 + 10 * (n - 1);
  const double expected = o.model.uniform / n + (1 - o.model.uniform) * 900 / visits;
  double total = 0;
  for (const auto& [move, p] : replyDistribution(grower.graph(), frame.key, o.model)) {
    total += p;
    if (move == popular)
      EXPECT_NEAR(p, expected, 1e-9);
    else
      EXPECT_NEAR(p, o.model.uniform / n + (1 - o.model.uniform) * 10 / visits, 1e-9);
  }
  EXPECT_NEAR(total, 1, 1e-9);

  Board afterPopular = canonical;
  afterPopular.play(popular);
  const PositionKey popularChild = canonicalize(afterPopular).key;
  std::mt19937_64 rng(5);
  int picks = 0;
  for (int i = 0; i < 2000; ++i) picks += *grower.pickLeaf(rng) == popularChild;
  EXPECT_NEAR(picks / 2000.0, expected, 0.05);  // about 0.65; by the values it would be about 0.01
}

// The opponent plays a proven win only where its own search would find it in a turn; a win the
// deep search needed 150,000 iterations for is missed: its replies spread by the visits as
// elsewhere, so the book covers the positions after its other moves.
TEST(BookGrowth, AnOpponentMissesAWinItsOwnSearchWouldNotFind) {
  const Cell good = cellAt(3, 2);
  const GameModel model;
  const std::vector<Cell> classes = moveClasses(Board());
  const double n = double(classes.size());
  for (uint32_t winVisits : {0u, 4000u, 150000u}) {
    Database db;
    db.setVerdict(GrowOptions().deep.key(), PositionKey{}, emptyBoardWonBy(good, winVisits, winVisits ? 100 : 0));
    Grower grower(db, firstPlayerOnly(), nullptr);
    ASSERT_EQ(grower.graph().find(PositionKey{})->estimate.proof, Proof::Win);
    const auto replies = replyDistribution(grower.graph(), PositionKey{}, model);
    if (winVisits + 100 * (n - 1) <= model.findsWinVisits) {
      ASSERT_EQ(replies.size(), 1u) << winVisits;
      EXPECT_EQ(replies[0].first, good);
      continue;
    }
    ASSERT_EQ(replies.size(), classes.size()) << winVisits;
    const double visits = winVisits + 100 * (n - 1);
    double total = 0;
    for (const auto& [move, p] : replies) {
      total += p;
      EXPECT_NEAR(p, model.uniform / n + (1 - model.uniform) * (move == good ? winVisits : 100) / visits, 1e-9);
    }
    EXPECT_NEAR(total, 1, 1e-9);
  }
}

// The opponent avoids a move proven lost only where it would see the loss: the position after it
// is won where the winner's own search finds the win in a turn, or it is not searched and the
// deep search proved the move lost. A loss the deep search needed 150,000 iterations for is not
// seen: the opponent may play that move, and the book must have the answer.
TEST(BookGrowth, AnOpponentMayPlayALossItsOwnSearchWouldNotSee) {
  const std::vector<Cell> classes = moveClasses(Board());
  const Cell seen = classes[0], unseen = classes[1], unsearched = classes[2];
  const std::string key = GrowOptions().deep.key();
  Database db;
  DeepVerdict root;
  for (Cell m : classes) {
    const bool lost = m == seen || m == unseen || m == unsearched;
    root.moves.push_back({m, lost ? 0.0f : 0.5f, lost ? Proof::Loss : Proof::Unknown, lost ? 300u : 100u});
  }
  root.best = classes.back();
  db.setVerdict(key, PositionKey{}, root);
  auto wonAfter = [&](Cell first, uint32_t winVisits) {  // the position after `first`, won for its side to move
    Board b;
    b.play(first);
    const PositionKey child = canonicalize(b).key;
    const Board canonical = boardOf(child);
    db.setVerdict(key, child, wonBy(canonical, moveClasses(canonical)[0], winVisits, 10));
  };
  wonAfter(seen, 1000);
  wonAfter(unseen, 150000);
  Grower grower(db, firstPlayerOnly(), nullptr);
  const GameModel model;
  const auto replies = replyDistribution(grower.graph(), PositionKey{}, model);
  ASSERT_EQ(replies.size(), classes.size() - 2);
  const double n = double(replies.size()), visits = 300 + 100 * (n - 1);
  double total = 0;
  for (const auto& [move, p] : replies) {
    EXPECT_NE(move, seen);
    EXPECT_NE(move, unsearched);
    EXPECT_NEAR(p, model.uniform / n + (1 - model.uniform) * (move == unseen ? 300 : 100) / visits, 1e-9);
    total += p;
  }
  EXPECT_NEAR(total, 1, 1e-9);
}

// A win the bot's own search would not find in a turn (proven only by a long deep search, or
// through the book's deeper positions) is carried on by the growth: the bot plays the winning
// move, the opponent plays on (by the deep search's visits, though every move is lost), and the
// positions after its replies are searched. A win solved before any iteration (the bot's own
// root check finds it) ends the line.
TEST(BookGrowth, AWinTheBotsSearchWouldMissIsCarriedOnByTheBook) {
  const Cell good = cellAt(3, 2);
  Board afterGood;
  afterGood.play(good);
  const Canonical frame = canonicalize(afterGood);
  auto rootVerdict = [&](uint32_t winVisits, uint32_t otherVisits) {
    return emptyBoardWonBy(good, winVisits, otherVisits);
  };
  const std::string key = GrowOptions().deep.key();
  std::mt19937_64 rng(7);
  {  // solved before any iteration: the bot finds it; nothing is left to expand
    Database db;
    db.setVerdict(key, PositionKey{}, rootVerdict(0, 0));
    Grower grower(db, firstPlayerOnly(), nullptr);
    EXPECT_FALSE(grower.pickLeaf(rng).has_value());
  }
  Database db;
  db.setVerdict(key, PositionKey{}, rootVerdict(150000, 1000));
  {  // proven by a long search: the position after the winning move is searched next
    Grower grower(db, firstPlayerOnly(), nullptr);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(grower.pickLeaf(rng), std::optional<PositionKey>(frame.key));
  }
  // The opponent's position, every move proven lost: it still replies, mostly where the search
  // looked longest.
  const Board canonical = boardOf(frame.key);
  const std::vector<Cell> replies = moveClasses(canonical);
  const Cell popular = replies[replies.size() / 3];
  DeepVerdict lost;
  for (Cell m : replies) lost.moves.push_back({m, 0.0f, Proof::Loss, m == popular ? 900u : 10u});
  lost.best = popular;
  db.setVerdict(key, frame.key, lost);
  GrowOptions o = firstPlayerOnly();
  Grower grower(db, o, nullptr);
  ASSERT_EQ(grower.graph().find(frame.key)->estimate.proof, Proof::Loss);
  double total = 0;
  for (const auto& [move, p] : replyDistribution(grower.graph(), frame.key, o.model)) total += p;
  EXPECT_NEAR(total, 1, 1e-9);
  Board afterPopular = canonical;
  afterPopular.play(popular);
  const PositionKey popularChild = canonicalize(afterPopular).key;
  int picks = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::optional<PositionKey> leaf = grower.pickLeaf(rng);
    ASSERT_TRUE(leaf.has_value());
    EXPECT_NE(*leaf, frame.key);  // a position after the opponent's reply (a stone, or the steal)
    EXPECT_FALSE(leaf->stealAvailable);
    picks += *leaf == popularChild;
  }
  const double n = double(replies.size());
  EXPECT_NEAR(picks / 1000.0, o.model.uniform / n + (1 - o.model.uniform) * 900 / (900 + 10 * (n - 1)), 0.05);
}

TEST(BookGrowth, SecondPlayerLinesStartFromEveryFirstStone) {
  Database db;
  Grower grower(db, withStarts(1, 0), nullptr);
  std::mt19937_64 rng(2);
  std::map<PositionKey, int> starts;
  for (int i = 0; i < 2000; ++i) ++starts[*grower.pickLeaf(rng)];
  EXPECT_EQ(starts.size(), moveClasses(Board()).size());  // the 9 classes of first stones
}

// Two random plies (never a steal) reach the two-stone classes (337 up to symmetry).
TEST(BookGrowth, TwoStoneLinesStartFromTheTwoPlyClasses) {
  Database db;
  Grower grower(db, withStarts(0, 1), nullptr);
  std::mt19937_64 rng(5);
  std::set<PositionKey> starts;
  for (int i = 0; i < 6000; ++i) {
    const PositionKey k = *grower.pickLeaf(rng);
    EXPECT_EQ(popcount(k.mine | k.theirs), 2);
    EXPECT_FALSE(k.stealAvailable);
    starts.insert(k);
  }
  EXPECT_GT(starts.size(), 300u);
  EXPECT_LE(starts.size(), 337u);
}

// Lines of random openings with the bot first: a random first stone, the opponent's reply from the
// searched one-stone position, then the bot's move at ply 2 is what gets expanded.
TEST(BookGrowth, FirstPlayerLinesAfterARandomStoneExpandThePly2Positions) {
  Database db;
  const GrowOptions o = withStarts(1, 0);
  for (Cell first : moveClasses(Board())) {
    Board b;
    b.play(first);
    DeepVerdict v;
    for (Cell m : moveClasses(b)) v.moves.push_back({m, 0.5f, Proof::Unknown, 100});
    v.best = v.moves.front().move;
    db.setVerdict(o.deep.key(), canonicalize(b).key, v);
  }
  Grower grower(db, o, nullptr);
  std::mt19937_64 rng(4);
  std::set<PositionKey> leaves;
  for (int i = 0; i < 500; ++i) {
    int plies = 0;
    const PositionKey leaf = *grower.pickLeaf(rng, &plies);
    EXPECT_EQ(plies, 2);
    EXPECT_FALSE(leaf.stealAvailable);
    leaves.insert(leaf);
  }
  EXPECT_GT(leaves.size(), 100u);  // the replies are spread over many classes (all valued alike)
  // The packer's order gives these positions a reach too, once they are searched.
  for (const PositionKey& k : leaves) {
    DeepVerdict v;
    for (Cell m : moveClasses(boardOf(k))) v.moves.push_back({m, 0.5f, Proof::Unknown, 100});
    v.best = v.moves.front().move;
    db.setVerdict(o.deep.key(), k, v);
  }
  const BookGraph g = BookGraph::fromDatabase(db, o.deep.key());
  const Choices choices = chooseFromGraph(g, o.model);
  for (const PositionKey& k : leaves) EXPECT_TRUE(choices.count(k));
}

TEST(BookGrowth, ARunExpandsDistinctPositionsOnThreadsAndStoresEveryVerdict) {
  Database db;
  GrowOptions o;
  o.threads = 2;
  o.targetPositions = 60;
  o.progressSeconds = 1000;
  std::atomic<int> calls{0};
  const EvaluatorFactory factory = hashValuedEvaluators(&calls);
  Grower grower(db, o, factory);
  std::string log;
  ASSERT_TRUE(growToTheEnd(grower, log)) << log;
  const auto& verdicts = db.verdicts().at(o.deep.key());
  EXPECT_GE(verdicts.size(), 60u);
  EXPECT_EQ(size_t(calls.load()), verdicts.size());  // no position searched twice
  EXPECT_EQ(grower.graph().size(), verdicts.size());
  EXPECT_NE(log.find("positions/h"), std::string::npos);
}

// bookgen run --moves: every line starts at the given position, so every searched position holds
// its stones (in one of the 12 orientations, each player's own).
TEST(BookGrowth, LinesStartAtTheGivenPosition) {
  Board root;
  root.play(cellAt(3, 2));
  root.play(cellAt(3, 3));
  Database db;
  GrowOptions o;
  o.root = root;
  o.targetPositions = 40;
  o.progressSeconds = 1000;
  Grower grower(db, o, hashValuedEvaluators());
  std::string log;
  ASSERT_TRUE(growToTheEnd(grower, log)) << log;
  const auto& verdicts = db.verdicts().at(o.deep.key());
  ASSERT_GE(verdicts.size(), 40u);
  EXPECT_TRUE(verdicts.count(canonicalize(root).key));
  const PositionKey rootKey = PositionKey::of(root);
  for (const auto& [key, verdict] : verdicts) {
    const int plies = popcount(key.mine | key.theirs) - 2;  // below the root
    // Keys are seen by the player to move: the root's mover owns `mine` after an even count of plies.
    const Bitboard rootMoverStones = plies % 2 == 0 ? key.mine : key.theirs;
    const Bitboard rootOtherStones = plies % 2 == 0 ? key.theirs : key.mine;
    bool holdsRoot = false;
    for (int t = 0; t < 12; ++t)
      holdsRoot |= (transformBits(t, rootKey.mine) & ~rootMoverStones) == 0 &&
                   (transformBits(t, rootKey.theirs) & ~rootOtherStones) == 0;
    EXPECT_TRUE(plies >= 0 && holdsRoot) << "a searched position without the root's stones, " << plies + 2 << " stones";
  }
}

// From the given position the bot is either side, evenly: at the root it plays its book move
// when it is to move there (half the lines), and the opponent's even spread otherwise.
TEST(BookGrowth, FromTheGivenPositionTheBotIsEitherSide) {
  Board root;
  root.play(cellAt(3, 2));
  root.play(cellAt(3, 3));
  const Canonical frame = canonicalize(root);
  const Cell best = moveClasses(boardOf(frame.key)).front();
  GrowOptions o;
  o.root = root;
  o.bookMoveShare = 1;
  o.opponentExploreShare = 0;
  o.model.uniform = 1;
  Database db;
  DeepVerdict verdict;  // one move much better than the rest, none proven
  for (Cell m : moveClasses(boardOf(frame.key)))
    verdict.moves.push_back({m, m == best ? 0.9f : 0.3f, Proof::Unknown, 100});
  verdict.best = best;
  db.setVerdict(o.deep.key(), frame.key, verdict);
  Grower grower(db, o, nullptr);
  Board after = boardOf(frame.key);
  after.play(best);
  const PositionKey bestChild = canonicalize(after).key;
  std::mt19937_64 rng(3);
  int picks = 0;
  for (int i = 0; i < 1000; ++i) picks += *grower.pickLeaf(rng) == bestChild;
  EXPECT_NEAR(picks / 1000.0, 0.5, 0.08);  // the bot's half, plus 1 in ~30 of the opponent's spread
}

TEST(BookGraphPack, ShipsNoProvenLossAndRoundTripsThroughTheEmbeddedText) {
  std::mt19937_64 rng(5);
  auto verdicts = expandAll(Board(), 3, rng, 0.1);
  Database db;
  for (const auto& [key, v] : verdicts) db.setVerdict("k", key, v);
  const BookGraph g = BookGraph::fromDatabase(db, "k");
  const Choices choices = chooseFromGraph(g, GameModel());
  ASSERT_GT(choices.size(), 20u);
  for (const auto& [key, choice] : choices) {
    const BookGraph::Node* node = g.find(key);
    ASSERT_NE(node, nullptr);  // every shipped move has its position's own verdict
    for (const BookGraph::Move& m : node->moves)
      if (m.move == choice.move) {
        EXPECT_NE(m.estimate.proof, Proof::Loss);
      }
  }
  const PackedBook book = packBook(choices, 100000);
  OpeningBook decoded;
  std::string error;
  ASSERT_TRUE(decoded.load(book.text, error)) << error;
  ASSERT_EQ(decoded.size(), book.positions);
  for (const auto& [key, move] : decoded.entries()) EXPECT_EQ(choices.at(key).move, move);
  // A tight budget keeps the likeliest positions: the empty board and the answers to first stones.
  const PackedBook small = packBook(choices, 8);
  OpeningBook few;
  ASSERT_TRUE(few.load(small.text, error)) << error;
  EXPECT_TRUE(few.lookup(Board()).has_value());
}

// A re-pack keeps a move of the shipped book unless the database's choice is clearly better (its
// lower bound above the shipped move's mean), or the shipped move is proven lost.
TEST(BookGraphPack, AShippedMoveStaysUntilTheDatabaseClearlyPrefersAnother) {
  const Cell a = cellAt(4, 4), b = cellAt(2, 2);  // two first-move classes
  auto graphWith = [&](float valueA, float valueB, Proof proofB) {
    DeepVerdict v;
    for (Cell m : moveClasses(Board()))
      v.moves.push_back({m,
                         m == a   ? valueA
                         : m == b ? valueB
                                  : 0.3f,
                         m == b ? proofB : Proof::Unknown,
                         m == a   ? 10000u
                         : m == b ? 9000u
                                  : 100u});
    v.best = a;
    Database db;
    db.setVerdict("k", PositionKey{}, v);
    return BookGraph::fromDatabase(db, "k");
  };
  auto shippedWith = [](Cell move) {
    Choices c;
    c[PositionKey{}].move = move;
    OpeningBook book;
    std::string error;
    EXPECT_TRUE(book.load(packBook(c, 1000).text, error)) << error;
    return book;
  };
  const OpeningBook shipsB = shippedWith(b);
  const GameModel model;
  // A little better than B, within the noise: the fresh choice is A, the re-pack keeps B.
  const BookGraph close = graphWith(0.52f, 0.50f, Proof::Unknown);
  EXPECT_EQ(chooseFromGraph(close, model).at(PositionKey{}).move, a);
  const Choices kept = chooseFromGraph(close, model, &shipsB);
  EXPECT_EQ(kept.at(PositionKey{}).move, b);
  EXPECT_EQ(keptMoves(kept, shipsB).same, 1u);
  EXPECT_EQ(keptMoves(chooseFromGraph(close, model), shipsB).changed, 1u);
  // A clearly better: its lower bound is above B's mean.
  const BookGraph clear = graphWith(0.75f, 0.50f, Proof::Unknown);
  ASSERT_GT(clear.find(PositionKey{})->moves.size(), 2u);
  EXPECT_EQ(chooseFromGraph(clear, model, &shipsB).at(PositionKey{}).move, a);
  // B proven lost: never kept.
  EXPECT_EQ(chooseFromGraph(graphWith(0.52f, 0.50f, Proof::Loss), model, &shipsB).at(PositionKey{}).move, a);
  // The shipped move is found by its class: another cell of B's class counts as B.
  auto keyAfter = [](Cell c) {
    Board x;
    x.play(c);
    return canonicalize(x).key;
  };
  Cell mirror = kNoCell;
  for (Cell c = 0; c < kCells; ++c)
    if (c != b && keyAfter(c) == keyAfter(b)) mirror = c;
  ASSERT_NE(mirror, kNoCell);
  const OpeningBook shipsMirror = shippedWith(mirror);
  EXPECT_EQ(chooseFromGraph(close, model, &shipsMirror).at(PositionKey{}).move, b);

  // The growth follows the same move: with the shipped book, its lines from the empty board
  // expand the position after B; without it, the one after A.
  DeepVerdict v;
  for (Cell m : moveClasses(Board()))
    v.moves.push_back({m,
                       m == a   ? 0.52f
                       : m == b ? 0.50f
                                : 0.3f,
                       Proof::Unknown,
                       m == a   ? 10000u
                       : m == b ? 9000u
                                : 100u});
  v.best = a;
  Database db;
  GrowOptions o;
  o.model.oneStoneShare = o.model.twoStoneShare = 0;  // every line starts at the empty board
  o.bookMoveShare = 1;
  db.setVerdict(o.deep.key(), PositionKey{}, v);
  auto leafOfLines = [&](std::shared_ptr<const OpeningBook> shipped) {
    o.shipped = std::move(shipped);
    Grower grower(db, o, nullptr);
    std::mt19937_64 rng(3);
    std::set<PositionKey> leaves;
    for (int i = 0; i < 20; ++i) leaves.insert(*grower.pickLeaf(rng));
    EXPECT_EQ(leaves.size(), 1u);
    return *leaves.begin();
  };
  EXPECT_EQ(leafOfLines(std::make_shared<OpeningBook>(shipsB)), keyAfter(b));
  EXPECT_EQ(leafOfLines(nullptr), keyAfter(a));
}

// The verdicts survive the file (visits rounded as version 7 rounds them), and merging two files
// grown apart gives the graph of one file that holds both.
TEST(BookGraphFile, VerdictVisitsSurviveTheFileAndMergingUnitesRuns) {
  std::mt19937_64 rng(9);
  const auto verdicts = expandAll(Board(), 2, rng, 0.05);
  Database a, b, both;
  size_t i = 0;
  for (const auto& [key, v] : verdicts) {
    (i++ % 2 ? a : b).setVerdict("k", key, v);
    both.setVerdict("k", key, v);
  }
  std::string error;
  auto throughFile = [&](const Database& db) {
    Database read;
    EXPECT_TRUE(deserializeDatabase(serializeDatabase(db), "x.db", read, error)) << error;
    return read;
  };
  Database read = throughFile(a);
  for (const auto& [key, v] : a.verdicts().at("k")) {
    const DeepVerdict* r = read.verdict("k", key);
    ASSERT_NE(r, nullptr);
    for (const DeepMove& m : v.moves) {  // rounded to within 1/32 (dbfile::visitsCode)
      EXPECT_LE(std::abs(double(r->find(m.move)->visits) - double(m.visits)), m.visits / 32.0);
      EXPECT_EQ(r->find(m.move)->visits == 0, m.visits == 0);
    }
  }
  read.merge(throughFile(b));
  const BookGraph merged = BookGraph::fromDatabase(read, "k"), one = BookGraph::fromDatabase(throughFile(both), "k");
  ASSERT_EQ(merged.size(), one.size());
  for (const auto& n : one.nodes()) {
    const Estimate& e = merged.find(n.key)->estimate;
    EXPECT_EQ(e.mean, n.estimate.mean);
    EXPECT_EQ(e.proof, n.estimate.proof);
  }
}

TEST(BookGraphPage, ThePageHoldsTheGraphsFiguresInRealOrientation) {
  std::mt19937_64 rng(13);
  const auto verdicts = expandAll(Board(), 3, rng, 0.05);
  const BookGraph g = graphOf(verdicts);
  const Choices repack = chooseFromGraph(g, GameModel());
  const std::vector<PageNode> page = bookPageTree(g, repack, nullptr, 200);
  ASSERT_GT(page.size(), 20u);
  ASSERT_EQ(page[0].parent, -1);  // the empty board first
  size_t checked = 0, repackMarks = 0;
  for (size_t i = 0; i < page.size(); ++i) {
    // Rebuild the node's board from the moves on its path, then compare every move with the graph.
    std::vector<Cell> path;
    for (int n = int(i); n > 0; n = page[size_t(n)].parent) path.push_back(page[size_t(n)].move);
    Board b;
    for (auto it = path.rbegin(); it != path.rend(); ++it) ASSERT_EQ(b.play(*it), Outcome::None);
    const Canonical c = canonicalize(b);
    const BookGraph::Node* node = g.find(c.key);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(page[i].estimate.mean, node->estimate.mean);
    for (const PageMove& m : page[i].moves) {
      const BookGraph::Move* gm = nullptr;
      for (const BookGraph::Move& x : node->moves)
        if (x.move == c.toCanonical(m.cell)) gm = &x;
      ASSERT_NE(gm, nullptr);
      EXPECT_EQ(m.estimate.lower, gm->estimate.lower);
      EXPECT_EQ(m.deep.visits, gm->deep.visits);
      repackMarks += m.repack;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500u);
  EXPECT_GT(repackMarks, 0u);
  const std::string html = bookPageHtml(page, "test book");
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find(bookPageJson(page)), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);  // self-contained: nothing to fetch
}

namespace {

int countVerdicts(const std::string& path, const std::string& key) {
  Database db;
  std::string error;
  if (!loadDatabase(path, db, error)) return -1;
  auto it = db.verdicts().find(key);
  return it == db.verdicts().end() ? 0 : int(it->second.size());
}

pid_t startGrowth(const std::string& path) {
  const std::string bin = std::string(YAVALATH_BIN_DIR) + "/bookgen";
  const pid_t child = fork();
  if (child == 0) {
    if (!freopen("/dev/null", "w", stderr)) _exit(126);
    execl(bin.c_str(), bin.c_str(), "run", "--db", path.c_str(), "--iterations", "300", "--nodes", "100000",
          "--checkpoint", "5", "--threads", "2", (char*)nullptr);
    _exit(127);
  }
  return child;
}

// Polls the database until it holds more than `count` verdicts of `key` (a checkpoint was written),
// for up to two minutes (a loaded, sanitised run is slow); the number it holds then, or -1.
int verdictsAfterACheckpoint(const std::string& path, const std::string& key, int count) {
  int now = -1;
  return waitFor([&] { return (now = countVerdicts(path, key)) > count; }) ? now : -1;
}

}  // namespace

// The kill and the stop come once a checkpoint is on disk (polled, not after a fixed time: on a
// loaded machine 1.5 s was sometimes too short for the first one).
TEST(BookGrowth, BinaryKilledLosesAtMostACheckpointStopsOnSigintAndResumes) {
  const std::string path = scratchPath("grow_kill.db");
  const std::string key = "yav-search-rave-forcing-1/300it";
  std::remove(path.c_str());
  pid_t child = startGrowth(path);
  ASSERT_GT(child, 0);
  const int checkpointed = verdictsAfterACheckpoint(path, key, 0);
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_GE(checkpointed, 5) << "no checkpoint within two minutes";
  const int afterKill = countVerdicts(path, key);
  ASSERT_GE(afterKill, checkpointed) << "a valid file with the checkpoints written before the kill";

  child = startGrowth(path);  // resumes the killed run's file
  const int resumed = verdictsAfterACheckpoint(path, key, afterKill);
  kill(child, SIGINT);
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_GT(resumed, afterKill) << "the resumed run wrote no checkpoint within two minutes";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const int afterStop = countVerdicts(path, key);
  EXPECT_GE(afterStop, resumed);  // a stop keeps what was saved, and saves every finished search

  const std::string bin = std::string(YAVALATH_BIN_DIR) + "/bookgen";
  const std::string resume = bin + " run --db " + path + " --iterations 300 --nodes 100000 --positions " +
                             std::to_string(afterStop + 10) + " 2>/dev/null";
  ASSERT_EQ(std::system(resume.c_str()), 0);
  EXPECT_EQ(countVerdicts(path, key), afterStop + 10);
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
}
