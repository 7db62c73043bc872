# SPDX-License-Identifier: GPL-3.0-or-later
# The Python family (urllib3, tenacity): the units as written, and the units run under retrylab conform.
retrylab_add_test(NAME tst_export_python SOURCES tst_export_python.cpp LIBS retrylab_codegen retrylab_policy)
# The proof judges real third-party clients: once, in the ci preset (dev-asan excludes export-proof).
retrylab_add_test(NAME tst_exportproof_python SOURCES tst_exportproof_python.cpp exportproof.h
    LIBS retrylab_codegen retrylab_policy Qt6::Core LABELS "net;real-client;export-proof" TIMEOUT 300)
target_compile_definitions(tst_exportproof_python PRIVATE RETRYLAB_BINARY="$<TARGET_FILE:retrylab>")
add_dependencies(tst_exportproof_python retrylab)
