package io.ferry;

import io.ferry.config.ConfigException;
import io.ferry.config.ConfigLoader;
import io.ferry.config.MigrationConfig;
import io.ferry.copy.LocalJit;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Not a command of Ferry's: what {@code jobs/migrate.sh} asks before it starts a local run's JVM, the JIT compilers
 * the job wants ({@link LocalJit}), printed as its FERRY_JIT takes them. Arguments as {@code ferry migrate} takes them;
 * a job file with a problem prints nothing and exits 2 (the run itself names its problems).
 */
public final class LocalJvm {
  private LocalJvm() {}

  public static void main(String[] args) {
    String conf = null;
    Map<String, String> overrides = new LinkedHashMap<>();
    for (String arg : args) {
      if (arg.startsWith("-D") && arg.contains("=")) {
        overrides.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
      } else if (!arg.startsWith("-") && !arg.equals("migrate") && !arg.equals("plan") && !arg.equals("verify")) {
        conf = arg;
      }
    }
    try {
      if (conf == null) System.exit(Ferry.BAD_CONFIG);
      MigrationConfig config = ConfigLoader.load(Path.of(conf), overrides);
      System.out.println(LocalJit.of(config.source(), config.destination()).flag());
    } catch (ConfigException e) {
      System.exit(Ferry.BAD_CONFIG);
    }
  }
}
