#include "delivery/net_transfer.hpp"

#include "core/loadable_module.hpp"

namespace syndic {
namespace {

const LoadableModule net_module{"syndic-net.so", "SYNDIC_NET_MODULE", "Sending e-mail and webhooks"};

}  // namespace

TransferResult send_mail(const SmtpSettings& smtp, const std::string& recipient, const std::string& message) {
    using Send = void (*)(const SmtpSettings*, const std::string*, const std::string*, TransferResult*);
    TransferResult result;
    reinterpret_cast<Send>(module_symbol(net_module, "syndic_send_mail"))(&smtp, &recipient, &message, &result);
    return result;
}

TransferResult post(const HttpPost& request) {
    using Post = void (*)(const HttpPost*, TransferResult*);
    TransferResult result;
    reinterpret_cast<Post>(module_symbol(net_module, "syndic_post"))(&request, &result);
    return result;
}

}  // namespace syndic
