// A request body's content coding (RFC 9110, 8.4): gzip and deflate bodies inflated in place,
// never beyond the body limit. Knows zlib; nothing of sockets or routes.
#pragma once
#include <cstddef>
#include <string>

#include "http/message.hpp"

namespace syndic::http {

// 0 when the body is ready to use (decoded, or sent without a coding); otherwise the status to
// refuse it with (413 over the limit once inflated, 415 an unknown coding, 400 a corrupt one) and
// `problem` says why in English.
int decode_body(Request& request, std::size_t max_bytes, std::string& problem);

}  // namespace syndic::http
