// The words for game results, in one place. Each says from whose view it is:
// - Outcome: what one move decided, for the player who made it (Board::play).
// - Proof: a proven game result for one player: at a search node or a book position, the side to
//   move there; for a move (root moves, book move statistics), the player making it.
// - a winner: player 0 or 1, or kDrawResult (playouts, games).
// - half-points: the score of a game counted as 2 per win, 1 per draw, 0 per loss, so that sums
//   stay integers (search node statistics, book statistics, match pairs).
#pragma once

#include <cstdint>

namespace yav {

enum class Outcome : uint8_t { None, Win, Loss, Draw };  // of a move, for the player who made it
enum class Proof : int8_t { Unknown, Win, Loss, Draw };  // for the player named where it is stored

constexpr int kDrawResult = -1;  // the "winner" of a drawn game (the board filled up)

inline const char* proofName(Proof p) {
  return p == Proof::Win ? "win" : p == Proof::Loss ? "loss" : p == Proof::Draw ? "draw" : "unknown";
}
// The same proof seen from the other player.
inline Proof flipProof(Proof p) { return p == Proof::Win ? Proof::Loss : p == Proof::Loss ? Proof::Win : p; }

// The winner once `mover`'s move decided `o` (not Outcome::None).
inline int winnerAfter(Outcome o, int mover) {
  return o == Outcome::Win ? mover : o == Outcome::Loss ? mover ^ 1 : kDrawResult;
}
// The proof for the side to move after a move that decided `o` (not Outcome::None).
inline Proof proofAfter(Outcome o) {
  return o == Outcome::Win ? Proof::Loss : o == Outcome::Loss ? Proof::Win : Proof::Draw;
}
// The winner of a position proven `p` (not Proof::Unknown) for `toMove`.
inline int winnerOfProof(Proof p, int toMove) {
  return p == Proof::Win ? toMove : p == Proof::Loss ? (toMove ^ 1) : kDrawResult;
}

// The half-points `player` scores in a game won by `winner` (a player or kDrawResult).
inline uint32_t halfPoints(int winner, int player) { return winner == player ? 2 : winner == kDrawResult ? 1 : 0; }

}  // namespace yav
