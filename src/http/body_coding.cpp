#include "http/body_coding.hpp"

#include <zlib.h>

#include <algorithm>

namespace syndic::http {

namespace {

std::string lowered_trimmed(std::string text) {
    text.erase(0, text.find_first_not_of(" \t"));
    text.erase(text.find_last_not_of(" \t") + 1);
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

}  // namespace

int decode_body(Request& request, std::size_t max_bytes, std::string& problem) {
    if (!request.has_header("Content-Encoding")) return 0;
    const auto coding = lowered_trimmed(request.get_header_value("Content-Encoding"));
    if (coding.empty() || coding == "identity") return 0;
    if (coding != "gzip" && coding != "x-gzip" && coding != "deflate") {
        problem = "The body's Content-Encoding " + coding.substr(0, 40) + " is not taken (gzip and deflate are).";
        return 415;
    }
    z_stream z{};
    // 32 + 15: a gzip or zlib header, recognised from the data.
    if (inflateInit2(&z, 32 + 15) != Z_OK) {
        problem = "The body could not be inflated.";
        return 400;
    }
    std::string out;
    char chunk[16384];
    z.next_in = reinterpret_cast<Bytef*>(request.body.data());
    z.avail_in = static_cast<uInt>(request.body.size());
    int result = Z_OK;
    while (result != Z_STREAM_END) {
        z.next_out = reinterpret_cast<Bytef*>(chunk);
        z.avail_out = sizeof chunk;
        result = inflate(&z, Z_NO_FLUSH);
        if (result != Z_OK && result != Z_STREAM_END) break;
        out.append(chunk, sizeof chunk - z.avail_out);
        if (out.size() > max_bytes) {
            inflateEnd(&z);
            problem = "The body is larger than " + std::to_string(max_bytes) + " bytes.";
            return 413;
        }
        if (result == Z_OK && z.avail_in == 0 && z.avail_out != 0) break;  // truncated
    }
    inflateEnd(&z);
    if (result != Z_STREAM_END) {
        problem = "The body is not valid " + coding + " data.";
        return 400;
    }
    request.body = std::move(out);
    return 0;
}

}  // namespace syndic::http
