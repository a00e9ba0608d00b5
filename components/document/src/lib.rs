//! The document component: Document-Policy parsing, origins, script CORS
//! status and muted errors, cross-origin isolation. Built by the document issue.
