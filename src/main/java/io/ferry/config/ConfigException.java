package io.ferry.config;

import java.util.List;

/** The job file cannot be used. Each problem names the key, the bad value and what is allowed. */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("\n", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
