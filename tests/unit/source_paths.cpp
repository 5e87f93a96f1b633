#include "source_paths.hpp"

namespace syndic::test {

const std::string& source_root() {
    static const std::string path = SYNDIC_SOURCE_ROOT;
    return path;
}

const std::string& unit_tests_folder() {
    static const std::string path = source_root() + "/tests/unit";
    return path;
}

}  // namespace syndic::test
