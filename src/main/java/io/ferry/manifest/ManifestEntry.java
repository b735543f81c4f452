package io.ferry.manifest;

import java.io.Serializable;

/**
 * One object a manifest names.
 *
 * @param size bytes, or -1 when the manifest does not say (a key list of keys alone)
 * @param etag unquoted, or ""
 * @param lastModifiedMillis epoch milliseconds, or 0 when the manifest does not say
 */
public record ManifestEntry(String key, long size, String etag, long lastModifiedMillis) implements Serializable {}
