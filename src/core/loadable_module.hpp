// Modules the executable loads with dlopen on first use (syndic-pdf.so: cairo and pango;
// syndic-net.so: libcurl), so a process that needs neither never maps their libraries. Looked for,
// first found wins: the path in the module's environment variable; beside the executable (the
// build folder's top, or a copied pair); where `meson install` puts it; where this build made it
// (the tests' executables, in subfolders of the build folder). Knows files and the loader only.
#pragma once
#include <string>

namespace syndic {

struct LoadableModule {
    const char* file_name;     // "syndic-pdf.so"
    const char* environment;   // "SYNDIC_PDF_MODULE"
    const char* what;          // "PDF rendering", for the failure's message
};

// The address of `symbol` in the module, loaded once per process and module; throws
// std::runtime_error, each time it is asked, when the module cannot be loaded, with the
// loader's reasons for every place looked at.
void* module_symbol(const LoadableModule& module, const char* symbol);

}  // namespace syndic
