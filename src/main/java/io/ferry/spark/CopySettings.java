package io.ferry.spark;

import io.ferry.config.CopyConfig;
import io.ferry.config.DestinationConfig;
import io.ferry.config.SourceConfig;
import java.io.Serializable;

/**
 * All an executor needs to copy and commit: serializable settings only, never a client. Paths are absolute, as the
 * driver resolved them.
 *
 * @param job names what the job leaves between its runs (temp files, the ledger), so a rerun finds it
 */
public record CopySettings(SourceConfig source, DestinationConfig destination, String job, String runId, CopyConfig copy)
    implements Serializable {}
