// A message's wire form (RFC 5322 and MIME): its headers, with non-ASCII text in RFC 2047 encoded
// words (in a mailbox, the display name only: the address stays as it is), the body and its files
// in base64. Knows neither the outbox nor SMTP.
#pragma once
#include <string>
#include <vector>

#include "core/clock.hpp"

namespace syndic {

// A file sent with a message (a document of the outbox row's attachments: the minutes...).
struct MailAttachment {
    std::string file_name;   // as the recipient saves it, UTF-8
    std::string media_type;  // application/pdf
    std::string bytes;
};

// A mailbox as a From: or To: header writes it (RFC 5322 section 3.4): "Name <address>" or a bare
// address; a display name with specials is quoted, one not plain ASCII is RFC 2047 encoded words,
// and the address is never encoded (so the header parses as that mailbox, and DMARC aligns on it).
std::string mailbox_header(const std::string& mailbox);

// The RFC 5322 text of a message: UTF-8 subject (RFC 2047), body in base64 lines, CRLF ends; with
// attachments, a multipart/mixed message whose first part is the body (RFC 2046), each file's
// name in RFC 2231 when it is not plain ASCII.
std::string compose_mail(const std::string& from, const std::string& to, const std::string& subject,
                         const std::string& body, const std::string& message_id, Instant date,
                         const std::vector<MailAttachment>& attachments = {});

}  // namespace syndic
