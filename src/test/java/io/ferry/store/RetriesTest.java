package io.ferry.store;

import io.ferry.store.retry.Retrier;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retries said in code ({@link Retries}) and held to on the bytecode: each store method that can fail says whether it
 * retries, an implementation of one that tries once does not retry inside, and no caller retries one that retries.
 */
class RetriesTest {
  private static final List<Class<?>> STORE = List.of(Store.class, Writing.class, StagedBytes.class, ExistingObjects.class,
      CutOverTarget.class, VersionedWrites.class, HardLinkTarget.class, Lister.class, RangeReader.class, InServiceCopy.class);
  private static JavaClasses product;

  @BeforeAll
  static void importProduct() {
    product = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ferry");
  }

  @Test
  void everyStoreMethodThatCanFailSaysWhetherItRetries() {
    for (Class<?> type : STORE) {
      for (Method m : type.getDeclaredMethods()) {
        if (!Arrays.asList(m.getExceptionTypes()).contains(IOException.class)) continue;
        assertThat(m.isAnnotationPresent(Retries.Once.class) ^ m.isAnnotationPresent(Retries.Retried.class))
            .as("%s.%s is marked @Retries.Once or @Retries.Retried, not both", type.getSimpleName(), m.getName()).isTrue();
      }
    }
  }

  @Test
  void anImplementationOfAMethodThatTriesOnceDoesNotRetry() {
    List<String> retrying = new ArrayList<>();
    for (JavaClass c : product) {
      if (c.isInterface()) continue;
      for (JavaMethod m : c.getMethods()) {
        Optional<Method> declared = storeMethod(c, m);
        if (declared.isEmpty() || !declared.get().isAnnotationPresent(Retries.Once.class)) continue;
        if (callsRetrier(m)) retrying.add(c.getSimpleName() + "." + m.getName());
      }
    }
    assertThat(retrying).as("implementations of @Retries.Once methods that retry inside").isEmpty();
  }

  @Test
  void noCallerRetriesAMethodThatRetries() {
    List<String> twice = new ArrayList<>();
    for (JavaClass c : product) {
      for (JavaMethod m : c.getMethods()) {
        if (callsRetrier(m)) handed(m).filter(RetriesTest::retries).forEach(t -> twice.add(c.getSimpleName() + "." + m.getName() + " -> "
            + t.getName()));
      }
    }
    assertThat(twice).as("methods that hand a @Retries.Retried method to a retrier").isEmpty();
  }

  @Test
  void theRulesCatchWhatTheyAreFor() {
    // the caller rule sees through a lambda and a method reference (two shapes of the same mistake)
    JavaClasses bad = new ClassFileImporter().importClasses(Twice.class, Lister.class, Retrier.class);
    JavaClass twice = bad.get(Twice.class);
    for (String name : List.of("lambda", "reference")) {
      JavaMethod m = twice.getMethod(name, Retrier.class, Lister.class);
      assertThat(callsRetrier(m)).isTrue();
      assertThat(handed(m).anyMatch(RetriesTest::retries)).as(name).isTrue();
    }
  }

  /** A class that does what the rules forbid. */
  static final class Twice {
    static StoreObject lambda(Retrier retrier, Lister lister) throws IOException {
      return retrier.call(() -> lister.find("k"));
    }

    static StoreObject reference(Retrier retrier, Lister lister) throws IOException {
      return retrier.call(Twice::listed);
    }

    @Retries.Retried
    static StoreObject listed() {
      return null;
    }
  }

  /** The store interface method {@code m} implements, if any. */
  private static Optional<Method> storeMethod(JavaClass c, JavaMethod m) {
    for (Class<?> type : STORE) {
      if (!c.isAssignableTo(type)) continue;
      for (Method declared : type.getDeclaredMethods()) {
        if (declared.getName().equals(m.getName()) && declared.getParameterCount() == m.getRawParameterTypes().size()) {
          List<String> params = m.getRawParameterTypes().stream().map(JavaClass::getName).toList();
          if (params.equals(Arrays.stream(declared.getParameterTypes()).map(Class::getName).toList())) return Optional.of(declared);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * What a method may hand a retrier: every method it calls, in its lambdas too (ArchUnit counts a lambda's accesses as its
   * enclosing method's), and every method reference in it. A method that retries one thing and calls a retrying method
   * outside the retrier is flagged too: rare, and better split.
   */
  private static Stream<AccessTarget> handed(JavaMethod m) {
    return Stream.concat(m.getMethodCallsFromSelf().stream().map(call -> (AccessTarget) call.getTarget()),
        m.getMethodReferencesFromSelf().stream().map(ref -> (AccessTarget) ref.getTarget()));
  }

  private static boolean callsRetrier(JavaMethod u) {
    return u.getMethodCallsFromSelf().stream().anyMatch(call -> call.getTargetOwner().isEquivalentTo(Retrier.class)
        && List.of("call", "run", "attempts").contains(call.getName()));
  }

  private static boolean retries(AccessTarget target) {
    return target instanceof AccessTarget.MethodCallTarget || target instanceof AccessTarget.MethodReferenceTarget
        ? ((AccessTarget.CodeUnitAccessTarget) target).resolveMember().map(member -> member.isAnnotatedWith(Retries.Retried.class))
        .orElse(false)
        : false;
  }
}
