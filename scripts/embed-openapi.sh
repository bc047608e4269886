#!/usr/bin/env bash
# Writes Sources/LayoutServer/OpenAPIDocument.swift from openapi.yaml, so the server
# serves the same document the repository keeps (a test checks the two match).
set -euo pipefail
cd "$(dirname "$0")/.."
{
  echo '// Generated from openapi.yaml by `make openapi` (scripts/embed-openapi.sh); a test checks they match.'
  echo 'enum OpenAPIDocument {'
  echo '    static let yaml = #"""'
  cat openapi.yaml
  echo ''
  echo '"""#'
  echo '}'
} > Sources/LayoutServer/OpenAPIDocument.swift
