// The search signature (tools/common/search_signature.h): what the bot's search computes at fixed
// iterations on the bench positions, as one number. Reproducibility tests compare a build with
// itself; this compares it with the committed value, so an unintended change to the search fails
// here. A commit that changes the search on purpose updates kCommitted and says why.
#include <gtest/gtest.h>

#include <string>

#include "tools/common/search_signature.h"

namespace yav {
namespace {

constexpr uint32_t kCommitted = 2345705296;

TEST(SearchSignature, MatchesTheCommittedValue) {
  EXPECT_EQ(searchSignature(std::string(YAVALATH_SOURCE_DIR) + "/tests/data"), kCommitted)
      << "the search computes something else: if intended, update kCommitted and say why in the commit";
}

}  // namespace
}  // namespace yav
