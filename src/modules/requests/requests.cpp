#include "modules/requests/requests.hpp"

#include "modules/requests/tools.hpp"

namespace syndic {

void register_requests_module(ToolTable& table) {
    table.bind("list_requests", requests::list_requests);
    table.bind("get_request", requests::get_request);
    table.bind("create_request", requests::create_request);
    table.bind("update_request", requests::update_request);
    table.bind("add_request_comment", requests::add_request_comment);
    table.bind("resolve_request", requests::resolve_request);
}

}  // namespace syndic
