// render_pdf loads the renderer (pdf_renderer.cpp, built as the module syndic-pdf.so) on the first
// PDF a process makes, so a stdio server that renders none never loads cairo, pango and their chain.
#include "modules/documents/pdf_writer.hpp"

#include <filesystem>

#include "core/loadable_module.hpp"
#include "storage/durable_file.hpp"

// LeakSanitizer (the sanitized unit tests, the fuzzers): fontconfig, loaded with the PDF module,
// links its cached fonts by encoded offsets that LSan cannot follow, so caches kept until exit by
// design look leaked. LSan asks the executable for its suppressions, so this lives here, not in
// the module.
extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }

namespace syndic {
namespace {

using RenderFunction = void (*)(const PdfDocument*, RenderedPdf*);

const LoadableModule pdf_module{"syndic-pdf.so", "SYNDIC_PDF_MODULE", "PDF rendering"};

RenderFunction renderer() { return reinterpret_cast<RenderFunction>(module_symbol(pdf_module, "syndic_render_pdf")); }

}  // namespace

RenderedPdf render_pdf(const PdfDocument& document) {
    RenderedPdf pdf;
    renderer()(&document, &pdf);
    return pdf;
}

int write_pdf(const PdfDocument& document, const std::string& path) {
    const auto pdf = render_pdf(document);
    write_file_durably(path, pdf.bytes, FileCheck::pdf, std::filesystem::path(path).filename().string());
    return pdf.pages;
}

}  // namespace syndic
