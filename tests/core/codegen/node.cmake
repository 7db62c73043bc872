# SPDX-License-Identifier: GPL-3.0-or-later
# The Node family's export targets (got, ky, axios-retry, cockatiel; issue 30): golden units and syntax, then
# the proof that the units conform, run with the npm packages pinned by tests/clients/node/package-lock.json.
retrylab_add_test(NAME tst_export_node SOURCES tst_export_node.cpp LIBS retrylab_codegen retrylab_policy TIMEOUT 120)
target_compile_definitions(tst_export_node PRIVATE NODE_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data/node")

retrylab_add_test(NAME tst_exportproof_node SOURCES tst_exportproof_node.cpp exportproof.h LIBS retrylab_codegen Qt6::Core
    LABELS "net;real-client;export-proof" TIMEOUT 420 SPLIT got ky axiosRetry cockatiel)
target_compile_definitions(tst_exportproof_node PRIVATE RETRYLAB_BINARY="$<TARGET_FILE:retrylab>"
    RETRYLAB_NPM_CLIENTS="${CMAKE_BINARY_DIR}/tests/clients/node" NODE_DATA_DIR="${CMAKE_CURRENT_SOURCE_DIR}/data/node")
add_dependencies(tst_exportproof_node retrylab)
set_tests_properties(${RETRYLAB_TEST_NAMES} PROPERTIES FIXTURES_REQUIRED npm_clients)
