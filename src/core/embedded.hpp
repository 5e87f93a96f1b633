// Files compiled into the executable at build time (schemas, migrations): a name and its bytes.
// Knows nothing of what the files mean; tools/embed.py writes the tables.
#pragma once
#include <span>
#include <string_view>

namespace syndic {

struct EmbeddedFile {
    std::string_view name;     // path relative to its root folder, with '/' separators
    std::string_view content;  // the bytes, NUL-terminated in storage
};

}  // namespace syndic

std::span<const syndic::EmbeddedFile> embedded_schemas();
std::span<const syndic::EmbeddedFile> embedded_migrations();
