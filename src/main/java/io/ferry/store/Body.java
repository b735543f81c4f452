package io.ferry.store;

import java.io.IOException;
import java.io.InputStream;

/** The bytes of a write, opened when the request is sent; opened again (from the start) if it must be resent. */
@FunctionalInterface
public interface Body {
  InputStream open() throws IOException;
}
