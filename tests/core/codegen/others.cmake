# SPDX-License-Identifier: GPL-3.0-or-later
# The other families: .NET, Go, Java (resilience4j) and the proxies (Envoy, gRPC), and the importers.
retrylab_add_test(NAME tst_yamlreader SOURCES tst_yamlreader.cpp LIBS retrylab_codegen)
