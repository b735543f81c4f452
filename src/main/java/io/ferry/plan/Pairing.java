package io.ferry.plan;

import io.ferry.store.StoreObject;
import java.io.Serializable;

/**
 * What the listings hold at one relative key: the source's object, the destination's, and whether the key is also a
 * folder of other source keys ("a" beside "a/b").
 *
 * @param source null when only the destination holds the key
 * @param existing null when the destination does not hold it
 */
public record Pairing(String relativeKey, StoreObject source, StoreObject existing, boolean prefixOfOthers) implements Serializable {}
