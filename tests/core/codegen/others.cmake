# SPDX-License-Identifier: GPL-3.0-or-later
# The other families: .NET, Go, Java (resilience4j) and the proxies (Envoy, gRPC), and the importers.
retrylab_add_test(NAME tst_yamlreader SOURCES tst_yamlreader.cpp LIBS retrylab_codegen)
# Go (cenkalti/backoff, go-retryablehttp): the exported units built offline against Debian's packages and run
# under retrylab conform.
retrylab_add_test(NAME tst_exportproof_go SOURCES tst_exportproof_go.cpp exportproof.h LIBS retrylab_codegen Qt6::Core
    LABELS "net;real-client;export-proof" TIMEOUT 420 SPLIT retryablehttp cenkalti)
target_compile_definitions(tst_exportproof_go PRIVATE RETRYLAB_BINARY="$<TARGET_FILE:retrylab>")
add_dependencies(tst_exportproof_go retrylab)
retrylab_add_test(NAME tst_codeimport SOURCES tst_codeimport.cpp LIBS retrylab_codegen retrylab_policy)
retrylab_add_test(NAME tst_export_proxies SOURCES tst_export_proxies.cpp LIBS retrylab_codegen retrylab_policy)
retrylab_add_test(NAME tst_export_dotnet_java SOURCES tst_export_dotnet_java.cpp LIBS retrylab_codegen retrylab_policy)
