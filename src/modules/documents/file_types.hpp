// What a stored file may be: the MIME types the syndicate keeps, the bytes each must begin with (or
// be made of), and the base64 (standard alphabet, padded: RFC 4648 section 4) files travel in.
// Knows bytes only.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace syndic::documents {

inline constexpr std::size_t max_file_bytes = 3'000'000;

// The bytes of `text`, or nullopt unless it is standard base64 with its padding, nothing else.
std::optional<std::string> decode_base64(std::string_view text);

// The extension a stored file of this type is named with ("pdf"), "bin" for a type not kept.
std::string extension_for(std::string_view mime_type);

// Why `bytes` are not a file of `mime_type` (one sentence), or "" when they are: PDF %PDF-, JPEG
// FF D8 FF, PNG's 8-byte signature, WebP RIFF....WEBP, text and CSV valid UTF-8 without NUL, DOCX
// and XLSX a ZIP whose entries hold [Content_Types].xml and word/ or xl/ parts.
std::string type_mismatch(std::string_view mime_type, std::string_view bytes);

}  // namespace syndic::documents
