package io.ferry.spark;

import io.ferry.config.CopyConfig;
import io.ferry.config.SourceConfig;
import java.io.Serializable;

/** All an executor needs to copy and commit: serializable settings only, never a client. */
public record CopySettings(SourceConfig source, String destinationRoot, String runId, CopyConfig copy) implements Serializable {}
