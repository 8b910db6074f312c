/// A read-write reference to a value owned elsewhere (a store field, a setting, an editor draft), as
/// SwiftUI's `Binding`: code that edits through it does not know or care where the value lives.
///
/// ```swift
/// let book = store.binding(\.books[index])
/// book.title.wrappedValue = "Dune"        // a sub-binding, through dynamic member lookup
/// ```
@dynamicMemberLookup
public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    /// A binding to a part of the value.
    public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member> {
        Binding<Member>(
            get: { self.wrappedValue[keyPath: keyPath] },
            set: { member in
                var value = self.wrappedValue
                value[keyPath: keyPath] = member
                self.wrappedValue = value
            })
    }

    /// A binding to a constant: writes are dropped. Handy in tests and previews.
    public static func constant(_ value: Value) -> Binding {
        Binding(get: { value }, set: { _ in })
    }
}

extension Store {
    /// A binding to a part of the state: every write goes through `update`, so observers hear it.
    public func binding<Value>(_ keyPath: WritableKeyPath<State, Value>) -> Binding<Value> {
        Binding(
            get: { self.state[keyPath: keyPath] },
            set: { value in self.update { $0[keyPath: keyPath] = value } })
    }
}
