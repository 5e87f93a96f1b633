// Where the tests read files of the source tree from. The paths are compiled into one unit
// (source_paths.cpp) alone, so a clone in another folder recompiles that unit and no test file
// (ccache keys a unit on its command line, and these paths are absolute).
#pragma once
#include <string>

namespace syndic::test {

// The repository's root folder (meson.project_source_root()).
const std::string& source_root();
// tests/unit/, where each module's folder has its pinned catalogue.json.
const std::string& unit_tests_folder();

}  // namespace syndic::test
