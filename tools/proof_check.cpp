// proof_check: the independent checker of Yavalath proof certificates (docs/proofs.md, "Certificate
// format (version 1)"). It is written again from the rules alone (shared/docs/codingame-yavalath.md:
// coordinates, lines, outcomes) and includes nothing but the C++ standard library: no code of the
// engine (src/), the book (tools/book/), the proof search (tools/proof/), the other tools or the tests, so that a bug
// there cannot make it accept a false proof. tests/test_proof_check.cpp checks that every #include here stays a
// standard header.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using Mask = std::uint64_t;
constexpr int kCells = 61;
constexpr Mask kBoard = (Mask{1} << kCells) - 1;

Mask bit(int cell) { return Mask{1} << cell; }
bool oneBit(Mask m) { return m && !(m & (m - 1)); }
bool twoBits(Mask m) { return m && oneBit(m & (m - 1)); }
int lowestCell(Mask m) {
  int cell = 0;
  while (!(m & 1)) m >>= 1, ++cell;
  return cell;
}
int cellCount(Mask m) {
  int n = 0;
  for (; m; m &= m - 1) ++n;
  return n;
}

// --- The board: cells numbered row-major over CodinGame (x, y); lines along the axial axes. ---
int rowLength(int y) { return 9 - (y > 4 ? y - 4 : 4 - y); }

struct Geometry {
  int x[kCells], y[kCells];
  int cellAt[9][9];         // [y][a] with a = x + max(0, y - 4); -1 off the board
  std::vector<Mask> fours;  // every 4 consecutive cells of a line
  std::vector<Mask> foursThrough[kCells];
  struct Three {
    Mask cells, ends;  // 3 consecutive cells, and the cells just beyond both ends
  };
  std::vector<Three> threes;

  Geometry() {
    int cell = 0;
    for (int row = 0; row < 9; ++row)
      for (int a = 0; a < 9; ++a) cellAt[row][a] = -1;
    for (int row = 0; row < 9; ++row)
      for (int col = 0; col < rowLength(row); ++col, ++cell) {
        x[cell] = col, y[cell] = row;
        cellAt[row][col + (row > 4 ? row - 4 : 0)] = cell;
      }
    const int axes[3][2] = {{1, 0}, {0, 1}, {1, 1}};  // (da, dy)
    for (const auto& axis : axes)
      for (int row = 0; row < 9; ++row)
        for (int a = 0; a < 9; ++a) {
          const Mask four = run(a, row, axis[0], axis[1], 4), three = run(a, row, axis[0], axis[1], 3);
          if (four) fours.push_back(four);
          if (three)
            threes.push_back({three, run(a - axis[0], row - axis[1], axis[0], axis[1], 1) |
                                         run(a + 3 * axis[0], row + 3 * axis[1], axis[0], axis[1], 1)});
        }
    for (Mask four : fours)
      for (Mask m = four; m; m &= m - 1) foursThrough[lowestCell(m)].push_back(four);
  }
  // The `length` cells from (a, row) along (da, dy), or 0 when one is off the board.
  Mask run(int a, int row, int da, int dy, int length) const {
    Mask cells = 0;
    for (int k = 0; k < length; ++k, a += da, row += dy) {
      if (a < 0 || a > 8 || row < 0 || row > 8 || cellAt[row][a] < 0) return 0;
      cells |= bit(cellAt[row][a]);
    }
    return cells;
  }
};
const Geometry geometry;

// Empty cells where a stone of `own` makes a line of 4 or more.
Mask fourCells(Mask own, Mask other) {
  Mask cells = 0;
  for (Mask four : geometry.fours) {
    const Mask missing = four & ~own;
    if (oneBit(missing) && !(missing & other)) cells |= missing;
  }
  return cells;
}
// Empty cells where a stone of `own` makes a line of exactly 3 (it may make a 4 on another axis).
Mask threeCells(Mask own, Mask other) {
  Mask cells = 0;
  for (const Geometry::Three& three : geometry.threes) {
    const Mask missing = three.cells & ~own;
    if (oneBit(missing) && !(missing & other) && !(three.ends & own)) cells |= missing;
  }
  return cells;
}

std::string hex16(Mask m) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m));
  return text;
}
std::string xyOf(int cell) { return std::to_string(geometry.x[cell]) + " " + std::to_string(geometry.y[cell]); }

// --- The file: read line by line, hashed (FNV-1a 64) as it is read. ---
struct LayoutError {
  long line;
  int column;  // 1-based; 0 when the error is about the whole line
  std::string message;
};

class LineReader {
 public:
  explicit LineReader(std::FILE* file) : file_(file), buffer_(1 << 20) {}
  long line() const { return line_; }
  std::uint64_t hash() const { return hash_; }

  bool atEnd() { return pos_ == size_ && !fill(); }

  // The next line without its '\n'; false at the end of the file. A last line without '\n' is cut short.
  bool next(std::string& text) {
    text.clear();
    for (;;) {
      if (pos_ == size_ && !fill()) {
        if (text.empty()) return false;
        throw LayoutError{line_ + 1, 0, "the file ends early, inside this line (no end of line)"};
      }
      const char* start = buffer_.data() + pos_;
      const void* newline = std::memchr(start, '\n', size_ - pos_);
      const std::size_t length = newline ? static_cast<const char*>(newline) - start : size_ - pos_;
      text.append(start, length);
      pos_ += length;
      if (newline) {
        ++pos_, ++line_;
        return true;
      }
    }
  }

 private:
  bool fill() {
    size_ = std::fread(buffer_.data(), 1, buffer_.size(), file_);
    pos_ = 0;
    if (std::ferror(file_)) throw LayoutError{line_ + 1, 0, std::string("cannot read: ") + std::strerror(errno)};
    for (std::size_t i = 0; i < size_; ++i) hash_ = (hash_ ^ static_cast<unsigned char>(buffer_[i])) * 1099511628211ULL;
    return size_ > 0;
  }
  std::FILE* file_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0, size_ = 0;
  long line_ = 0;
  std::uint64_t hash_ = 14695981039346656037ULL;
};

// The fields of one line, read left to right; every mistake names the column.
class Fields {
 public:
  Fields(const std::string& text, long line) : text_(text), line_(line) {}
  void word(const char* expected) {
    for (const char* c = expected; *c; ++c)
      if (pos_ >= text_.size() || text_[pos_] != *c)
        fail(std::string("expected '") + expected + "'");
      else
        ++pos_;
  }
  void space() { expectChar(' ', "a single space"); }
  Mask mask(const char* what) {
    Mask m = 0;
    for (int k = 0; k < 16; ++k) {
      const char c = peek();
      if (c >= '0' && c <= '9')
        m = m << 4 | Mask(c - '0');
      else if (c >= 'a' && c <= 'f')
        m = m << 4 | Mask(c - 'a' + 10);
      else
        fail(std::string("expected a lower-case hexadecimal digit (digit ") + std::to_string(k + 1) + " of 16 of the " +
             what + ")");
      ++pos_;
    }
    if (m & ~kBoard) fail(std::string("the ") + what + " sets a bit above cell 60", pos_ - 15);
    return m;
  }
  int digit(int low, int high, const char* what) {
    const char c = peek();
    if (c < '0' + low || c > '0' + high)
      fail("expected " + std::string(what) + " (" + std::to_string(low) + ".." + std::to_string(high) + ")");
    ++pos_;
    return c - '0';
  }
  std::uint64_t number(const char* what) {
    const std::size_t start = pos_;
    std::uint64_t n = 0;
    while (peek() >= '0' && peek() <= '9') {
      if (n > 1000000000000ULL) fail(std::string("the ") + what + " is too large", start + 1);
      n = n * 10 + (text_[pos_++] - '0');
    }
    if (pos_ == start) fail(std::string("expected ") + what + " (a decimal number)");
    if (text_[start] == '0' && pos_ - start > 1) fail(std::string("the ") + what + " has a leading zero", start + 1);
    return n;
  }
  void end() { expectChar('\0', "the end of the line"); }
  std::string found(std::size_t at) const {  // what the line holds at a 0-based column
    if (at >= text_.size()) return "the end of the line";
    const unsigned char c = static_cast<unsigned char>(text_[at]);
    if (c > ' ' && c < 127) return std::string("'") + char(c) + "'";
    char text[16];
    std::snprintf(text, sizeof text, "byte 0x%02x", c);
    return text;
  }
  // Stops with the message at the current column, adding what is found there; or at a given 1-based column.
  [[noreturn]] void fail(const std::string& message, std::size_t column = 0) const {
    const std::size_t at = column ? column - 1 : pos_;
    throw LayoutError{line_, static_cast<int>(at + 1), message + (column ? "" : ", found " + found(at))};
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void expectChar(char c, const char* what) {
    if (peek() != c || (c == '\0' && pos_ < text_.size())) fail(std::string("expected ") + what);
    if (c) ++pos_;
  }
  const std::string& text_;
  long line_;
  std::size_t pos_ = 0;
};

// --- The certificate in memory. ---
struct Certificate {
  Mask root[2];
  int rootToMove;  // 1 or 2
  int attacker;    // 1 or 2
  bool valueWin;
  int threatDepth;
  // The table sorted by (player-1 mask, player-2 mask); the move's cell rides in the 3 spare bits of
  // each mask (high bits in the first), so that an entry takes 16 bytes.
  struct Entry {
    Mask p1, p2;
  };
  std::vector<Entry> table;
  long wrongSideLine = 0;  // the first table line whose position has the defender to move

  long find(Mask p1, Mask p2) const {
    const auto less = [](const Entry& e, const Entry& key) {
      return (e.p1 & kBoard) != key.p1 ? (e.p1 & kBoard) < key.p1 : (e.p2 & kBoard) < key.p2;
    };
    const auto it = std::lower_bound(table.begin(), table.end(), Entry{p1, p2}, less);
    return it != table.end() && (it->p1 & kBoard) == p1 && (it->p2 & kBoard) == p2 ? it - table.begin() : -1;
  }
  int move(long index) const { return int(table[index].p1 >> kCells) << 3 | int(table[index].p2 >> kCells); }
};

bool playerToMove(Mask p1, Mask p2, int player) {
  const int n1 = cellCount(p1), n2 = cellCount(p2);
  return player == 1 ? n1 == n2 : n1 == n2 + 1;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Certificate read(std::FILE* file, std::uint64_t fileBytes, std::uint64_t& hash,
                 std::chrono::steady_clock::time_point start) {
  LineReader reader(file);
  std::string text;
  Certificate c{};
  // The next line that is not a comment; every byte must be printable ASCII.
  const auto next = [&](const char* expected) {
    do {
      if (!reader.next(text))
        throw LayoutError{reader.line() + 1, 0, std::string("the file ends early: expected ") + expected};
      for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] < ' ' || text[i] > '~') {
          const Fields fields(text, reader.line());
          fields.fail("expected printable ASCII text, found " + fields.found(i), i + 1);
        }
    } while (!text.empty() && text[0] == '#');
    return Fields(text, reader.line());
  };
  Fields header = next("'yavalath-certificate 1'");
  header.word("yavalath-certificate 1");
  header.end();
  Fields root = next("the 'root' line");
  root.word("root");
  root.space();
  c.root[0] = root.mask("player-1 mask");
  root.space();
  c.root[1] = root.mask("player-2 mask");
  if (c.root[0] & c.root[1]) root.fail("the two masks share cell " + xyOf(lowestCell(c.root[0] & c.root[1])), 6);
  root.space();
  c.rootToMove = root.digit(1, 2, "the player to move");
  root.end();
  if (!playerToMove(c.root[0], c.root[1], c.rootToMove))
    root.fail("player " + std::to_string(c.rootToMove) + " cannot be to move with " +
                  std::to_string(cellCount(c.root[0])) + " stones of player 1 and " +
                  std::to_string(cellCount(c.root[1])) + " of player 2 (player 1 moved first, no steal)",
              text.size());
  Fields value = next("the 'value' line");
  value.word("value ");
  if (text == "value win")
    c.valueWin = true;
  else if (text != "value loss")
    value.fail("expected 'win' or 'loss'");
  c.attacker = c.valueWin ? c.rootToMove : 3 - c.rootToMove;
  Fields depth = next("the 'threat-depth' line");
  depth.word("threat-depth");
  depth.space();
  c.threatDepth = depth.digit(1, 8, "the threat depth");
  depth.end();
  Fields count = next("the 'positions' line");
  count.word("positions");
  count.space();
  const std::uint64_t n = count.number("number of positions");
  count.end();
  // Reserve no more entries than the file can hold: a damaged count must not exhaust the memory.
  c.table.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, fileBytes / 38 + 1)));
  auto lastReport = start;
  long lastTableLine = 0;
  for (std::uint64_t k = 0; k < n; ++k) {
    Fields line = next(("table line " + std::to_string(k + 1) + " of " + std::to_string(n)).c_str());
    const Mask p1 = line.mask("player-1 mask");
    line.space();
    const Mask p2 = line.mask("player-2 mask");
    if (p1 & p2) line.fail("the two masks share cell " + xyOf(lowestCell(p1 & p2)), 1);
    line.space();
    const int x = line.digit(0, 8, "x");  // checked against its row's length below
    line.space();
    const int row = line.digit(0, 8, "y");
    line.end();
    if (x >= rowLength(row))
      line.fail("(" + std::to_string(x) + ", " + std::to_string(row) + ") is not a cell (row " + std::to_string(row) +
                    " has " + std::to_string(rowLength(row)) + " cells)",
                35);
    const int cell = geometry.cellAt[row][x + (row > 4 ? row - 4 : 0)];
    if ((p1 | p2) & bit(cell)) line.fail("the move " + xyOf(cell) + " is on an occupied cell", 35);
    if (!c.table.empty()) {
      const Certificate::Entry& last = c.table.back();
      const Mask lastP1 = last.p1 & kBoard, lastP2 = last.p2 & kBoard;
      if (lastP1 == p1 && lastP2 == p2)
        line.fail("the position of line " + std::to_string(lastTableLine) + " again (duplicate)", 1);
      if (lastP1 > p1 || (lastP1 == p1 && lastP2 > p2))
        line.fail("not sorted: this position comes before that of the table line above it", 1);
    }
    if (!c.wrongSideLine && !playerToMove(p1, p2, c.attacker)) c.wrongSideLine = reader.line();
    lastTableLine = reader.line();
    c.table.push_back({p1 | Mask(cell >> 3) << kCells, p2 | Mask(cell & 7) << kCells});
    if ((k & 0xfffff) == 0xfffff && secondsSince(lastReport) >= 3) {
      lastReport = std::chrono::steady_clock::now();
      std::fprintf(stderr, "proof_check: read %llu of %llu table lines (%.0f s)\n",
                   static_cast<unsigned long long>(k + 1), static_cast<unsigned long long>(n), secondsSince(start));
    }
  }
  Fields endLine = next("'end'");
  endLine.word("end");
  endLine.end();
  if (!reader.atEnd()) throw LayoutError{reader.line() + 1, 1, "expected the end of the file after 'end'"};
  hash = reader.hash();
  return c;
}

// --- The threat search T(P, d) of the format, for the attacker (`own`) to move. ---
// A lossy cache of T's verdicts: the largest depth known to fail and the smallest known to win.
class ThreatCache {
 public:
  struct Entry {
    Mask own = ~Mask{0}, other = 0;
    std::uint8_t failsUpTo = 0, winsFrom = 99;
  };
  Entry get(Mask own, Mask other) const {
    const Entry& e = slots_[slot(own, other)];
    return e.own == own && e.other == other ? e : Entry{};
  }
  void put(Mask own, Mask other, int depth, bool wins) {
    if (++writes_ > 4 * slots_.size() &&
        slots_.size() < (std::size_t{1} << 22)) {  // grow (and forget) as the search grows
      slots_.assign(slots_.size() * 2, Entry{});
      writes_ = 0;
    }
    Entry& e = slots_[slot(own, other)];
    if (e.own != own || e.other != other) e = Entry{own, other};
    if (wins)
      e.winsFrom = std::min<std::uint8_t>(e.winsFrom, std::uint8_t(depth));
    else
      e.failsUpTo = std::max<std::uint8_t>(e.failsUpTo, std::uint8_t(depth));
  }

 private:
  std::size_t slot(Mask own, Mask other) const {
    Mask h = (own * 0x9e3779b97f4a7c15ULL) ^ (other + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::size_t>((h ^ h >> 31) & (slots_.size() - 1));
  }
  std::vector<Entry> slots_ = std::vector<Entry>(std::size_t{1} << 12);
  std::size_t writes_ = 0;
};

// Cells that would make 4 or more for `own` after its stone on `cell` (none made 4 before it).
Mask threatsAfter(int cell, Mask own, Mask other) {
  Mask threats = 0;
  for (Mask four : geometry.foursThrough[cell])
    if (!(four & other) && twoBits(four & own)) threats |= four & ~own & ~bit(cell);
  return threats;
}

bool threatWin(Mask own, Mask other, int depth, ThreatCache& cache) {
  if (fourCells(own, other)) return true;
  if (depth == 1) return false;
  const ThreatCache::Entry known = cache.get(own, other);
  if (known.winsFrom <= depth) return true;
  if (known.failsUpTo >= depth) return false;
  // The defender's 4s: two cannot both be blocked; one must be blocked by the attacker's move.
  const Mask otherFours = fourCells(other, own);
  Mask moves =
      0;  // empty cells whose stone leaves a threat: the other empty cell of a 4-window holding 2 attacker stones
  if (!(otherFours & (otherFours - 1))) {
    for (Mask four : geometry.fours)
      if (!(four & other) && twoBits(four & own)) moves |= four & ~own;
    if (otherFours) moves &= otherFours;
    moves &= ~threeCells(own, other);
  }
  const Mask otherThrees = threeCells(other, own);  // a block there is a 3 for the defender (it made no 4 above)
  const Mask empty = kBoard & ~(own | other);
  bool wins = false;
  // First the moves that win at once: a double threat, or a threat whose only block makes the defender's 3.
  for (Mask m = moves; m && !wins; m &= m - 1) {
    const Mask threats = threatsAfter(lowestCell(m), own, other);
    wins = (threats & (threats - 1)) || (threats & otherThrees);
  }
  // Then one threat, its forced block (never filling the board), and a threat sequence one move shorter.
  if (cellCount(empty) > 2)
    for (Mask m = moves; m && !wins; m &= m - 1) {
      const Mask threats = threatsAfter(lowestCell(m), own, other);
      wins = threatWin(own | (m & -m), other | threats, depth - 1, cache);
    }
  cache.put(own, other, depth, wins);
  return wins;
}

// The attacker positions settled by the threat search, exactly (an open-addressing set that grows).
class PositionSet {
 public:
  bool insert(Mask p1, Mask p2) {  // false when it was there already
    if (2 * (count_ + 1) > slots_.size()) {
      std::vector<std::pair<Mask, Mask>> old(slots_.size() * 2, {kNone, 0});
      old.swap(slots_);
      for (const auto& s : old)
        if (s.first != kNone) place(s.first, s.second);
    }
    if (!place(p1, p2)) return false;
    ++count_;
    return true;
  }
  std::size_t size() const { return count_; }

 private:
  static constexpr Mask kNone = ~Mask{0};
  bool place(Mask p1, Mask p2) {
    Mask h = (p1 * 0x9e3779b97f4a7c15ULL) ^ (p2 + 0x632be59bd9b4e019ULL) * 0xbf58476d1ce4e5b9ULL;
    for (std::size_t i = (h ^ h >> 29) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i].first == kNone) {
        slots_[i] = {p1, p2};
        return true;
      }
      if (slots_[i].first == p1 && slots_[i].second == p2) return false;
    }
  }
  std::vector<std::pair<Mask, Mask>> slots_ = std::vector<std::pair<Mask, Mask>>(1024, {kNone, 0});
  std::size_t count_ = 0;
};

struct Rejection {
  std::string message;
};

// The walk of the strategy from the root (docs/proofs.md, "What the checker accepts").
class Walk {
 public:
  Walk(const Certificate& c, std::chrono::steady_clock::time_point start)
      : c_(c), used_(c.table.size()), start_(start), lastReport_(start) {}

  void run() {
    const Mask own = c_.root[c_.attacker - 1], other = c_.root[2 - c_.attacker];
    if (c_.wrongSideLine)
      reject(own, other, c_.rootToMove == c_.attacker,
             "the table's line " + std::to_string(c_.wrongSideLine) + " holds a position where player " +
                 std::to_string(c_.attacker) + ", the attacker by 'value " + (c_.valueWin ? "win" : "loss") +
                 "', is not to move");
    for (int player = 0; player < 2; ++player)
      for (const Geometry::Three& three : geometry.threes)
        if ((three.cells & c_.root[player]) == three.cells)
          reject(own, other, c_.rootToMove == c_.attacker,
                 "the root is finished: player " + std::to_string(player + 1) + " has a line of 3 or more");
    if ((c_.root[0] | c_.root[1]) == kBoard)
      reject(own, other, c_.rootToMove == c_.attacker, "the root is finished: the board is full");
    if (c_.valueWin)
      attackerMoves(own, other);
    else
      defenderMoves(own, other);
  }
  std::size_t tableUsed() const { return tableUsed_; }
  std::size_t threatLeaves() const { return leaves_.size(); }

 private:
  void attackerMoves(Mask own, Mask other) {
    if ((++checked_ & 0x3fff) == 0) progress();
    const Mask p1 = c_.attacker == 1 ? own : other, p2 = c_.attacker == 1 ? other : own;
    const long index = c_.find(p1, p2);
    if (index < 0) {
      if (leaves_.insert(p1, p2) && !threatWin(own, other, c_.threatDepth, cache_))
        reject(own, other, true,
               "not in the table, and no threat sequence of at most " + std::to_string(c_.threatDepth) +
                   " attacker moves wins");
      return;
    }
    if (used_[index]) return;
    used_[index] = true;
    ++tableUsed_;
    const int move = c_.move(index);
    if (fourCells(own, other) & bit(move)) return;
    if (threeCells(own, other) & bit(move))
      reject(own, other, true, "the table's move " + xyOf(move) + " makes a line of exactly 3 for the attacker");
    if ((own | other | bit(move)) == kBoard)
      reject(own, other, true, "the table's move " + xyOf(move) + " fills the board without a line of 4 (a draw)");
    path_.push_back(move);
    defenderMoves(own | bit(move), other);
    path_.pop_back();
  }

  void defenderMoves(Mask own, Mask other) {
    const Mask empty = kBoard & ~(own | other);
    if (const Mask fours = fourCells(other, own))
      reject(own, other, false, "the defender's reply " + xyOf(lowestCell(fours)) + " makes a line of 4 or more");
    for (Mask replies = empty & ~threeCells(other, own); replies; replies &= replies - 1) {
      const int reply = lowestCell(replies);
      if (empty == bit(reply))
        reject(own, other, false,
               "the defender's reply " + xyOf(reply) + " fills the board without a line of 3 (a draw)");
      path_.push_back(reply);
      attackerMoves(own, other | bit(reply));
      path_.pop_back();
    }
  }

  [[noreturn]] void reject(Mask own, Mask other, bool attackerToMove, const std::string& reason) const {
    const Mask p1 = c_.attacker == 1 ? own : other, p2 = c_.attacker == 1 ? other : own;
    std::string moves;
    for (int cell : path_) moves += (moves.empty() ? "" : ", ") + xyOf(cell);
    const int toMove = attackerToMove ? c_.attacker : 3 - c_.attacker;
    throw Rejection{"position " + hex16(p1) + " " + hex16(p2) + " player " + std::to_string(toMove) + " to move (" +
                    (attackerToMove ? "attacker" : "defender") +
                    "), moves from the root: " + (moves.empty() ? "none" : moves) + ": " + reason};
  }

  void progress() {
    if (secondsSince(lastReport_) < 3) return;
    lastReport_ = std::chrono::steady_clock::now();
    const double seconds = secondsSince(start_);
    std::fprintf(stderr,
                 "proof_check: %zu attacker positions checked (table %zu of %zu used, %zu by threat search), %.0f/s\n",
                 checked_, tableUsed_, c_.table.size(), leaves_.size(), checked_ / seconds);
  }

  const Certificate& c_;
  std::vector<bool> used_;
  std::size_t tableUsed_ = 0, checked_ = 0;
  PositionSet leaves_;
  ThreatCache cache_;
  std::vector<int> path_;
  std::chrono::steady_clock::time_point start_, lastReport_;
};

const char* const kUsage =
    "usage: proof_check FILE\n"
    "Checks a Yavalath proof certificate (docs/proofs.md, \"Certificate format (version 1)\") with its own\n"
    "rules, sharing no code with the engine. Prints one line and exits with\n"
    "  0  accepted: the value, root, table positions used, positions settled by the threat search,\n"
    "     time, and the FNV-1a 64 hash of the file's bytes;\n"
    "  1  rejected: the position (both masks, side to move, moves from the root as x y) and the reason;\n"
    "  2  FILE:LINE: the file does not follow the layout (or cannot be read), and what was expected;\n"
    "  3  the check could not finish (memory exhausted).\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc != 2 || argv[1][0] == '-') {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string path = argv[1];
  const auto start = std::chrono::steady_clock::now();
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) {
    std::fprintf(stderr, "%s: cannot open: %s\n", path.c_str(), std::strerror(errno));
    return 2;
  }
  try {
    std::uint64_t hash = 0, bytes = 0;
    if (std::fseek(file, 0, SEEK_END) == 0) {
      const long end = std::ftell(file);
      bytes = end > 0 ? std::uint64_t(end) : 0;
    }
    std::rewind(file);
    const Certificate c = read(file, bytes, hash, start);
    std::fclose(file);
    Walk walk(c, start);
    try {
      walk.run();
    } catch (const Rejection& r) {
      std::printf("rejected: %s\n", r.message.c_str());
      return 1;
    }
    std::printf(
        "accepted: value %s, root %s %s %d (player %d wins), table positions used %zu of %zu, settled by the threat "
        "search %zu (depth %d), %.2f s, fnv1a64 %s\n",
        c.valueWin ? "win" : "loss", hex16(c.root[0]).c_str(), hex16(c.root[1]).c_str(), c.rootToMove, c.attacker,
        walk.tableUsed(), c.table.size(), walk.threatLeaves(), c.threatDepth, secondsSince(start), hex16(hash).c_str());
    return 0;
  } catch (const LayoutError& e) {
    std::fprintf(stderr, "%s:%ld: %s%s\n", path.c_str(), e.line,
                 e.column ? ("column " + std::to_string(e.column) + ": ").c_str() : "", e.message.c_str());
    return 2;
  } catch (const std::exception& e) {  // memory exhausted: never a crash, never "accepted"
    std::fprintf(stderr, "proof_check: %s: %s\n", path.c_str(), e.what());
    return 3;
  }
}
