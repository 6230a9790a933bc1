import CCairo
import LoaderCore
