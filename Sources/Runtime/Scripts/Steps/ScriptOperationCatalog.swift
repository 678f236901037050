import FeatureServiceModel
import WebMap
/// Every operation an edit script can use, in the order of edit-scripts.md's table. Adding an operation is one
/// `ScriptOperation` type plus one line here.
enum ScriptOperationCatalog {
    static let all: [any ScriptOperation.Type] = [
        SignInStep.self, FetchVersionsStep.self, CreateVersionStep.self, SwitchVersionStep.self,
        QueryStep.self, AddFeatureStep.self, UpdateAttributesStep.self, MoveFeatureStep.self, DeleteFeatureStep.self,
        RelateStep.self, AddAttachmentStep.self, DeleteAttachmentStep.self,
        ApplyEditsStep.self, UndoLocalEditsStep.self,
        ExpectStep.self, ExpectLocalEditsStep.self, ExpectFormStep.self,
    ]

    /// The operation whose key is `name`, if any.
    static func operation(named name: String) -> (any ScriptOperation.Type)? { all.first { $0.name == name } }
}
