package io.ferry.demo;

import io.ferry.support.Browser;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A run's report.html as a PNG, in headless Chromium at a window of the given size (docs/report.png is a demo run's,
 * at 1000 × 1400). Paths under the working directory are shown relative to it, so no machine's folders end up in the
 * docs. From the checkout, after jobs/demo.sh:
 *   ferry_lab_java io.ferry.demo.Screenshot target/demo/reports/demo/RUN/report.html docs/report.png [width height]
 */
public final class Screenshot {
  private Screenshot() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) throw new IllegalArgumentException("usage: Screenshot <report.html> <out.png> [width height]");
    int width = args.length > 2 ? Integer.parseInt(args[2]) : 1000;
    int height = args.length > 3 ? Integer.parseInt(args[3]) : 1400;
    if (Browser.executable() == null) throw new IllegalStateException("Chromium is not installed (Debian: chromium)");
    Path profile = Files.createTempDirectory("ferry-screenshot");
    String here = Path.of("").toAbsolutePath().toString();
    Path page = profile.resolve("report.html");
    Files.writeString(page, Files.readString(Path.of(args[0])).replace(here + "/", ""));
    try (Browser browser = new Browser(profile.resolve("chromium"), width, height)) {
      browser.viewport(width, height);
      browser.open(page);
      browser.screenshot(Path.of(args[1]));
      if (!browser.errors().isEmpty()) throw new IllegalStateException("the page's errors: " + browser.errors());
    }
  }
}
