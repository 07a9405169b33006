// Placeholder translation unit for a layer without sources yet.
