#include "source_paths.hpp"

namespace syndic::test {

const std::string& source_root() {
    static const std::string path = SYNDIC_SOURCE_ROOT;
    return path;
}

const std::string& catalogue_path() {
    static const std::string path = source_root() + "/tests/catalogue.json";
    return path;
}

}  // namespace syndic::test
