// What the documents tests (tests/unit/documents/documents_*_test.cpp) share: the meetings fixture (its own
// data folder, meetings), files of each type as bytes, and a small ZIP archive maker for the DOCX
// and XLSX signatures. No check of a documents rule lives here.
#pragma once
#include "meetings/meetings_fixture.hpp"

#include <filesystem>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "modules/documents/file_types.hpp"

namespace syndic::test::documents_fixture {

using namespace syndic::test::meeting_fixture;

inline const std::string pdf_bytes = "%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
inline const std::string png_bytes = std::string("\x89PNG\r\n\x1A\n\0\0\0\rIHDR", 16) + "rest of the image";
inline const std::string jpeg_bytes = std::string("\xFF\xD8\xFF\xE0\0\x10JFIF", 10);
inline const std::string webp_bytes = std::string("RIFF\x1A\0\0\0WEBPVP8 ", 16);

inline std::string b64(const std::string& bytes) { return syndic::base64_encode(bytes); }

// A ZIP archive (stored, empty entries) with these entry names, as a DOCX or XLSX holds them.
inline std::string zip_with(const std::vector<std::string>& names) {
    auto le = [](std::string& out, std::uint32_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
    };
    std::string local, central;
    for (const auto& n : names) {
        const auto offset = static_cast<std::uint32_t>(local.size());
        local += "PK\x03\x04";
        le(local, 20, 2), le(local, 0, 2), le(local, 0, 2), le(local, 0, 4), le(local, 0, 4);
        le(local, 0, 4), le(local, 0, 4), le(local, static_cast<std::uint32_t>(n.size()), 2), le(local, 0, 2);
        local += n;
        central += "PK\x01\x02";
        le(central, 20, 2), le(central, 20, 2), le(central, 0, 2), le(central, 0, 2), le(central, 0, 4);
        le(central, 0, 4), le(central, 0, 4), le(central, 0, 4);
        le(central, static_cast<std::uint32_t>(n.size()), 2), le(central, 0, 2), le(central, 0, 2);
        le(central, 0, 2), le(central, 0, 2), le(central, 0, 4), le(central, offset, 4);
        central += n;
    }
    std::string out = local + central + "PK\x05\x06";
    le(out, 0, 2), le(out, 0, 2), le(out, static_cast<std::uint32_t>(names.size()), 2);
    le(out, static_cast<std::uint32_t>(names.size()), 2), le(out, static_cast<std::uint32_t>(central.size()), 4);
    le(out, static_cast<std::uint32_t>(local.size()), 4), le(out, 0, 2);
    return out;
}

inline const std::string docx_mime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
inline const std::string xlsx_mime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

struct DocumentsFixture : MeetingFixture {
    std::string documents_folder() const { return (std::filesystem::path(data_dir) / "documents").string(); }
    std::size_t stored_files() const {
        std::error_code ec;
        if (!std::filesystem::exists(documents_folder(), ec)) return 0;
        std::size_t n = 0;
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(documents_folder())) ++n;
        return n;
    }
    // attach_document of new content to a record; `extra` adds or overrides arguments.
    json attach(const std::string& bytes, const std::string& record_type, const json& record_id,
                const std::string& mime = "application/pdf", json extra = json::object()) {
        json args = {{"contentBase64", b64(bytes)}, {"fileName", "facture-2026.pdf"}, {"mimeType", mime},
                     {"kind", "invoice"}, {"title", "Facture de déneigement"}, {"recordType", record_type},
                     {"recordId", record_id}};
        args.update(extra);
        return call("attach_document", args);
    }
};

}  // namespace syndic::test::documents_fixture
