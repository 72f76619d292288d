// A search configuration written as comma-separated keys ("fvisits=8,noforcing"), shared by the
// tools that compare configurations (search_match, tactics). The keys are listed in
// search_match --help.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>

#include "search.h"

namespace yav {

struct SearchConfig {
  SearchOptions options;
  size_t nodes = size_t(1) << 22;
};

inline bool parseSearchConfig(const std::string& text, SearchConfig& cfg, std::string& error) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    double v = 0;
    if (eq != std::string::npos) {
      char* end = nullptr;
      const std::string number = item.substr(eq + 1);
      v = std::strtod(number.c_str(), &end);
      if (number.empty() || *end) {
        error = "config key '" + key + "' expects a number, got '" + number + "'";
        return false;
      }
    }
    if (key == "plain")
      cfg.options = SearchOptions::plainUct();
    else if (key == "c")
      cfg.options.exploration = v;
    else if (key == "expand")
      cfg.options.expandVisits = uint32_t(v);
    else if (key == "secure")
      cfg.options.secureChild = true;
    else if (key == "visits")
      cfg.options.secureChild = false;
    else if (key == "secureA")
      cfg.options.secureA = v;
    else if (key == "nosolver")
      cfg.options.solver = false;
    else if (key == "notactics")
      cfg.options.tactics = false;
    else if (key == "random")
      cfg.options.smartPlayouts = false;
    else if (key == "nolgr")
      cfg.options.lastGoodReply = false;
    else if (key == "nodes")
      cfg.nodes = size_t(v);
    else if (key == "rave")
      cfg.options.raveK = v;
    else if (key == "raveC")
      cfg.options.raveExploration = v;
    else if (key == "noforcing")
      cfg.options.forcing = false;
    else if (key == "fnodes")
      cfg.options.forcingLeafNodes = uint32_t(v);
    else if (key == "fdepth")
      cfg.options.forcingLeafDepth = int(v);
    else if (key == "fvisits")
      cfg.options.forcingVisits = uint32_t(v);
    else if (key == "ffirst")
      cfg.options.forcingFirstNodes = uint32_t(v);
    else if (key == "fretry")
      cfg.options.forcingRetryVisits = uint32_t(v);
    else if (key == "ftable") {
      if (v < 4 || v > 30 || v != int(v)) {
        error = "config key 'ftable' expects a whole number from 4 to 30, got " + item.substr(eq + 1);
        return false;
      }
      cfg.options.forcingTableLog2 = int(v);
    } else if (key == "frootnodes")
      cfg.options.forcingRootNodes = uint32_t(v);
    else if (key == "endgame")
      cfg.options.endgame = true;
    else if (key == "noendgame")
      cfg.options.endgame = false;
    else if (key == "egroot")
      cfg.options.endgameRootEmpties = int(v);
    else if (key == "egrootnodes")
      cfg.options.endgameRootNodes = uint32_t(v);
    else if (key == "egtree")
      cfg.options.endgameTreeEmpties = int(v);
    else if (key == "egtreenodes")
      cfg.options.endgameTreeNodes = uint32_t(v);

    else {
      error = "unknown config key '" + key + "'";
      return false;
    }
  }
  return true;
}

// One line per key, with the defaults read from the code so that the text cannot drift.
inline std::string searchConfigKeys() {
  const SearchOptions d;
  const SearchConfig defaults;
  std::ostringstream o;
  o << "  plain        the weak reference: plain UCT, no solver, no tactics, random playouts\n"
    << "  c=X          UCT exploration constant (default " << d.exploration << ")\n"
    << "  expand=N     visits before a leaf is expanded (default " << d.expandVisits << ")\n"
    << "  secure       final move by secure child (lower bound); visits: by most visits (default "
    << (d.secureChild ? "secure" : "visits") << ")\n"
    << "  secureA=X    the secure child's A in value - A / sqrt(n) (default " << d.secureA << ")\n"
    << "  nosolver     no proofs backed up the tree (default: solver on)\n"
    << "  notactics    no win / block / no-own-3 tactics at the leaves (default: on)\n"
    << "  random       uniformly random playouts (default: the smart policy)\n"
    << "  nolgr        the smart policy without the last good reply (default: with)\n"
    << "  nodes=N      tree size in nodes (default " << defaults.nodes << ")\n"
    << "  rave=K       RAVE weight k, 0 = off (default " << d.raveK << ")\n"
    << "  raveC=X      exploration constant used with RAVE (default " << d.raveExploration << ")\n"
    << "  noforcing    no forcing-sequence solver (default: on)\n"
    << "  fvisits=N    a node's forcing check at this visit count (default " << d.forcingVisits << ")\n"
    << "  ffirst=N     solver nodes per call at that check; a check cut short is made again (default "
    << d.forcingFirstNodes << ")\n"
    << "  fretry=N     ... with fnodes at this visit count; 0: one check with fnodes (default " << d.forcingRetryVisits
    << ")\n"
    << "  fnodes=N     solver nodes per call at a node (default " << d.forcingLeafNodes << ")\n"
    << "  fdepth=N     solver depth (attacker moves) at a node (default " << d.forcingLeafDepth << ")\n"
    << "  frootnodes=N solver nodes per call at the root (default " << d.forcingRootNodes << ")\n"
    << "  ftable=N     the solver's table has 2^N slots (default " << d.forcingTableLog2 << ")\n"
    << "  endgame / noendgame  the exact endgame solver on / off (default: " << (d.endgame ? "on" : "off") << ")\n"
    << "  egroot=N     the root is solved exactly with at most N empty cells (default " << d.endgameRootEmpties << ")\n"
    << "  egrootnodes=N  endgame solver nodes at the root (default " << d.endgameRootNodes << ")\n"
    << "  egtree=N     nodes with at most N empty cells are solved at their check (default " << d.endgameTreeEmpties
    << ")\n"
    << "  egtreenodes=N  endgame solver nodes at a node (default " << d.endgameTreeNodes << ")\n";
  return o.str();
}

}  // namespace yav
