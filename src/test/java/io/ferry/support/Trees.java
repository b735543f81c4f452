package io.ferry.support;

import io.ferry.store.file.KeyPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads a destination tree back: every regular file's SHA-256 by relative path, and any temp files left behind. */
public final class Trees {
  private Trees() {}

  public static Map<String, String> digests(Path root) throws IOException {
    Map<String, String> digests = new TreeMap<>();
    if (!Files.exists(root)) return digests;
    try (var paths = Files.walk(root)) {
      for (Path p : paths.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        if (name.startsWith(".ferry-") && name.endsWith(".marker") || KeyPaths.isTempName(name)) continue;
        digests.put(root.relativize(p).toString(), SeedData.sha256(p));
      }
    }
    return digests;
  }

  public static List<Path> tempFiles(Path root) throws IOException {
    if (!Files.exists(root)) return List.of();
    try (var paths = Files.walk(root)) {
      return paths.filter(p -> KeyPaths.isTempName(p.getFileName().toString()) || p.getFileName().toString().endsWith(".marker")).toList();
    }
  }
}
