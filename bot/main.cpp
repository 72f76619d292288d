// CodinGame entry point (placeholder until the search lands): answers every turn legally.
#include <iostream>

#include "protocol.h"
#include "rng.h"
#include "playout.h"

int main() {
  yav::ProtocolReader reader(std::cin);
  yav::TurnInput turn;
  yav::Rng rng(12345);
  while (reader.read(turn)) {
    for (const auto& e : turn.errors) std::cerr << "protocol: " << e << "\n";
    yav::Bitboard moves = turn.board.empty();
    std::cout << yav::formatMove(yav::randomCell(moves, rng)) << std::endl;
  }
}
