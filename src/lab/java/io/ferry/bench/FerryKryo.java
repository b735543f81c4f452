package io.ferry.bench;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.factories.SerializerFactory;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * A Kryo registrator for Ferry's rows, for {@link SerializeCost} (not used by Ferry: bench/results/README.md says why).
 * Kryo 4's field serializer cannot build records (their fields are final to reflection), and the rows hold the JDK's
 * unmodifiable collections, which Kryo would rebuild by {@code add}. Records are written component by component and
 * built by their canonical constructor; unmodifiable lists, sets and maps come back unmodifiable.
 */
public final class FerryKryo implements KryoRegistrator {
  @Override
  public void registerClasses(Kryo kryo) {
    kryo.addDefaultSerializer(Record.class, (SerializerFactory) RecordSerializer::of);
    for (String name : List.of("java.util.ImmutableCollections$AbstractImmutableList", "java.util.Collections$UnmodifiableList")) {
      kryo.addDefaultSerializer(jdk(name), new Unmodifiable(Unmodifiable.Kind.LIST));
    }
    for (String name : List.of("java.util.ImmutableCollections$AbstractImmutableSet", "java.util.Collections$UnmodifiableSet")) {
      kryo.addDefaultSerializer(jdk(name), new Unmodifiable(Unmodifiable.Kind.SET));
    }
    for (String name : List.of("java.util.ImmutableCollections$AbstractImmutableMap", "java.util.Collections$UnmodifiableMap")) {
      kryo.addDefaultSerializer(jdk(name), new Unmodifiable(Unmodifiable.Kind.MAP));
    }
    kryo.addDefaultSerializer(jdk("java.util.Arrays$ArrayList"), new Unmodifiable(Unmodifiable.Kind.ARRAY_LIST));
  }

  private static Class<?> jdk(String name) {
    try {
      return Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("this JDK has no " + name, e);
    }
  }

  /** A record: each component in order, then the canonical constructor. */
  static final class RecordSerializer<T extends Record> extends Serializer<T> {
    private final Class<?>[] types;
    private final MethodHandle[] accessors;
    private final MethodHandle constructor;

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Serializer<?> of(Kryo kryo, Class<?> type) {
      return new RecordSerializer(type);
    }

    RecordSerializer(Class<T> type) {
      setImmutable(true);
      RecordComponent[] components = type.getRecordComponents();
      types = new Class<?>[components.length];
      accessors = new MethodHandle[components.length];
      try {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (int i = 0; i < components.length; i++) {
          types[i] = components[i].getType();
          Method accessor = components[i].getAccessor();
          accessor.setAccessible(true);
          accessors[i] = lookup.unreflect(accessor).asType(MethodType.methodType(Object.class, Object.class));
        }
        java.lang.reflect.Constructor<T> canonical = type.getDeclaredConstructor(types);
        canonical.setAccessible(true);
        constructor = lookup.unreflectConstructor(canonical).asSpreader(Object[].class, types.length)
            .asType(MethodType.methodType(Object.class, Object[].class));
      } catch (ReflectiveOperationException e) {
        throw new KryoException("cannot serialize record " + type.getName() + ": " + e, e);
      }
    }

    @Override
    public void write(Kryo kryo, Output output, T record) {
      for (int i = 0; i < types.length; i++) {
        Object value;
        try {
          value = accessors[i].invokeExact((Object) record);
        } catch (Throwable e) {
          throw new KryoException("reading " + record.getClass().getName() + "'s component " + i, e);
        }
        Class<?> type = types[i];
        if (type == long.class) {
          output.writeVarLong((Long) value, false);
        } else if (type == int.class) {
          output.writeVarInt((Integer) value, false);
        } else if (type == boolean.class) {
          output.writeBoolean((Boolean) value);
        } else if (type == String.class) {
          output.writeString((String) value);
        } else if (type.isPrimitive()) {
          kryo.writeObject(output, value);
        } else if (Modifier.isFinal(type.getModifiers()) && !type.isArray()) {
          kryo.writeObjectOrNull(output, value, type); // records, enums and other final classes: no class written
        } else {
          kryo.writeClassAndObject(output, value);
        }
      }
    }

    @Override
    public T read(Kryo kryo, Input input, Class<T> type) {
      Object[] values = new Object[types.length];
      for (int i = 0; i < types.length; i++) {
        Class<?> t = types[i];
        if (t == long.class) {
          values[i] = input.readVarLong(false);
        } else if (t == int.class) {
          values[i] = input.readVarInt(false);
        } else if (t == boolean.class) {
          values[i] = input.readBoolean();
        } else if (t == String.class) {
          values[i] = input.readString();
        } else if (t.isPrimitive()) {
          values[i] = kryo.readObject(input, box(t));
        } else if (Modifier.isFinal(t.getModifiers()) && !t.isArray()) {
          values[i] = kryo.readObjectOrNull(input, t);
        } else {
          values[i] = kryo.readClassAndObject(input);
        }
      }
      try {
        return type.cast(constructor.invokeExact(values));
      } catch (RuntimeException e) {
        throw e; // the record's own checks: what it refuses, said by it
      } catch (Throwable e) {
        throw new KryoException("building " + type.getName(), e);
      }
    }

    private static Class<?> box(Class<?> primitive) {
      return MethodType.methodType(primitive).wrap().returnType();
    }
  }

  /** The JDK's unmodifiable collections, elements in order, rebuilt unmodifiable (or as {@code Arrays.asList} was). */
  static final class Unmodifiable extends Serializer<Object> {
    enum Kind { LIST, SET, MAP, ARRAY_LIST }

    private final Kind kind;

    Unmodifiable(Kind kind) {
      this.kind = kind;
      setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, Object value) {
      if (kind == Kind.MAP) {
        Map<?, ?> map = (Map<?, ?>) value;
        output.writeVarInt(map.size(), true);
        for (Map.Entry<?, ?> e : map.entrySet()) {
          kryo.writeClassAndObject(output, e.getKey());
          kryo.writeClassAndObject(output, e.getValue());
        }
        return;
      }
      Collection<?> c = (Collection<?>) value;
      output.writeVarInt(c.size(), true);
      for (Object o : c) kryo.writeClassAndObject(output, o);
    }

    @Override
    public Object read(Kryo kryo, Input input, Class<Object> type) {
      int size = input.readVarInt(true);
      if (kind == Kind.MAP) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) map.put(kryo.readClassAndObject(input), kryo.readClassAndObject(input));
        return Collections.unmodifiableMap(map);
      }
      Object[] elements = new Object[size];
      for (int i = 0; i < size; i++) elements[i] = kryo.readClassAndObject(input);
      return switch (kind) {
        case LIST -> Collections.unmodifiableList(new ArrayList<>(Arrays.asList(elements)));
        case SET -> Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(elements)));
        case ARRAY_LIST -> Arrays.asList(elements);
        case MAP -> throw new IllegalStateException("maps are read above");
      };
    }
  }
}
